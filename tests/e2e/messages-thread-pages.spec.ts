// The thread opens on the newest 50 messages of a 58-message conversation; "Load earlier messages" shows the
// rest without moving what the member was looking at; a new message still arrives at the bottom; only the
// messages shown are marked read.
import crypto from 'node:crypto';
import { test } from './support/test.ts';
import { expect } from './support/accounts.ts';
import {
  getServiceAuth,
  makeMatchedPair,
  messageInput,
  openConversation,
  serviceGet,
  serviceWrite,
  thread,
} from './support/two-members.ts';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

const SEEDED = 58;
const seedText = (i: number) => `seed ${String(i).padStart(2, '0')}`;

test('a long thread opens on its newest page and "Load earlier messages" reveals the older ones', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const [a, b] = await makeMatchedPair(browser, request, auth, ['Olga', 'Piet']);
  const [conversation] = await serviceGet<{ id: string }[]>(
    request,
    auth,
    `/rest/v1/conversations?select=id&participant1_id=in.(${a.id},${b.id})&participant2_id=in.(${a.id},${b.id})`,
  );
  expect(conversation).toBeDefined();
  // One request each, so each gets its own server time (odd from Piet to Olga, even from Olga to Piet):
  // 29 a member leaves each one more message within the burst limit (30 a minute).
  for (let i = 1; i <= SEEDED; i++) {
    const [from, to] = i % 2 === 1 ? [b.id, a.id] : [a.id, b.id];
    await serviceWrite(request, auth, 'post', '/rest/v1/messages', {
      id: crypto.randomUUID(),
      conversation_id: conversation!.id,
      sender_id: from,
      recipient_id: to,
      content: seedText(i),
    });
  }

  // Opened once Olga's replica holds every seeded message (the list previews the newest), else the thread
  // would rightly show (and read) the fewer that had arrived.
  await a.page.goto('/messages');
  const piet = a.page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /Piet/ });
  await expect(piet).toContainText(seedText(SEEDED), { timeout: 30_000 });
  await piet.click();
  await expect(a.page.getByRole('heading', { name: 'Piet', level: 2 })).toBeVisible();
  const bubbles = thread(a.page).locator('[data-message-id]');
  await expect(bubbles).toHaveCount(50);
  await expect(bubbles.first()).toContainText(seedText(9));
  await expect(bubbles.last()).toContainText(seedText(58));
  await expect(thread(a.page).getByText(seedText(8), { exact: true })).toHaveCount(0);

  // Only what is shown is read: Piet's 25 messages among the newest 50, not his 4 before them.
  const readByOlga = async () =>
    (
      await serviceGet<{ content: string }[]>(
        request,
        auth,
        `/rest/v1/messages?select=content&recipient_id=eq.${a.id}&status=eq.read&order=created_at`,
      )
    ).map((m) => m.content);
  await expect.poll(readByOlga, { timeout: 30_000 }).toHaveLength(25);
  expect(await readByOlga()).not.toContain(seedText(7));

  // Earlier messages appear above; the message that was first stays where it was on screen.
  const firstShown = bubbles.filter({ hasText: seedText(9) });
  await firstShown.scrollIntoViewIfNeeded();
  const before = (await firstShown.boundingBox())!.y;
  await thread(a.page).getByRole('button', { name: 'Load earlier messages' }).click();
  await expect(bubbles).toHaveCount(SEEDED);
  await expect(bubbles.first()).toContainText(seedText(1));
  await expect(thread(a.page).getByRole('button', { name: 'Load earlier messages' })).toHaveCount(0);
  expect(Math.abs((await firstShown.boundingBox())!.y - before)).toBeLessThan(2);
  await expect.poll(readByOlga, { timeout: 30_000 }).toHaveLength(29);

  // A new message still arrives at the bottom, and the earlier ones stay.
  await openConversation(b.page, 'Olga');
  await messageInput(b.page).fill('a new one at the bottom');
  await messageInput(b.page).press('Enter');
  // Uploaded from Piet's device first (under a loaded CI machine the upload and the sync to Olga can each take
  // a while; a refusal would show here, not as a missing bubble on Olga's side).
  const sentByPiet = thread(b.page).locator('[data-message-id]').last();
  await expect(sentByPiet).toContainText('a new one at the bottom');
  await expect(sentByPiet).not.toHaveAttribute('data-status', 'pending', { timeout: 30_000 });
  await expect(bubbles).toHaveCount(SEEDED + 1, { timeout: 30_000 });
  await expect(bubbles.last()).toContainText('a new one at the bottom');
  await expect(bubbles.first()).toContainText(seedText(1));
  const texts = await bubbles.locator('p:first-child').allTextContents();
  expect(texts.slice(0, SEEDED)).toEqual(Array.from({ length: SEEDED }, (_, i) => seedText(i + 1)));

  // The member's own sent message shows its state at the bottom of the grown window as before.
  await messageInput(a.page).fill('my reply');
  await messageInput(a.page).press('Enter');
  await expect(bubbles.last()).toContainText('my reply');
  await expect(bubbles.last()).toHaveAttribute('data-status', 'read', { timeout: 30_000 });
});
