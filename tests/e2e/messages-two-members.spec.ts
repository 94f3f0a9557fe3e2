// Messaging with two members in two browser contexts: real-time exchange, offline sending (pending, then once
// and in order), a draft surviving a reload, typing indicator, read receipts, notifications, data export, axe.
import fs from 'node:fs';
import { test, type Browser, type Page } from './support/test.ts';
import { acceptNecessaryCookies, expect, makeEmail, signUpAndConfirm } from './support/accounts.ts';
import { getMemberId, getServiceAuth, serviceWrite } from './support/service-role.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { holdReplicaOnNextLoad, releaseReplica, replicaHasOpened } from './support/replica.ts';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

async function newMemberPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await acceptNecessaryCookies(page);
  // The layout's match popup greets both members of the new match on whatever page they are.
  await page.addLocatorHandler(page.getByRole('button', { name: 'Keep Swiping' }), async (button) => {
    await button.click();
  });
  return page;
}

async function openConversation(page: Page, otherName: string) {
  await page.goto('/messages');
  // In the new matches' row until either writes, in the conversations after.
  await page
    .getByRole('navigation', { name: 'Conversation list' })
    .getByRole('button', { name: new RegExp(otherName) })
    .click();
  await expect(page.getByRole('heading', { name: otherName, level: 2 })).toBeVisible();
}

const thread = (page: Page) => page.getByRole('list', { name: 'Messages' });
const input = (page: Page) => page.getByLabel(/^Message /);

test('two members message in real time, offline, with drafts, typing, receipts, notifications and export', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const emailA = makeEmail('mira');
  const emailB = makeEmail('nils');
  const a = await newMemberPage(browser);
  const b = await newMemberPage(browser);
  await signUpAndConfirm(a, request, emailA);
  await signUpAndConfirm(b, request, emailB);
  const idA = await getMemberId(request, auth, emailA);
  const idB = await getMemberId(request, auth, emailB);
  await serviceWrite(request, auth, 'patch', `/rest/v1/profiles?id=eq.${idA}`, { name: 'Mira Example' });
  await serviceWrite(request, auth, 'patch', `/rest/v1/profiles?id=eq.${idB}`, {
    name: 'Nils Example',
    street_address: '7 Hidden Road',
    zip_code: 'NW1 6XE',
  });
  // A mutual like makes the match and its conversation (SQL triggers).
  for (const [from, to] of [
    [idA, idB],
    [idB, idA],
  ])
    await serviceWrite(request, auth, 'post', '/rest/v1/user_interactions', {
      user_id: from,
      target_id: to,
      interaction_type: 'like',
    });

  // A new match waits in the row of faces at the top of the list until either of them writes.
  await a.goto('/messages');
  await expect(
    a.getByRole('list', { name: 'New matches' }).getByRole('button', { name: /Nils/ }),
  ).toBeVisible({ timeout: 30_000 });
  await expect(a.getByRole('list', { name: 'Conversations' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(a);
  // Her match's whole profile, from My Matches: his public card, never his address; its Message button
  // leads to the conversation.
  await a.goto('/match-list');
  await a.getByRole('button', { name: "View Nils's profile" }).click();
  const profile = a.getByRole('dialog', { name: /^Nils/ });
  await expect(profile.getByRole('list', { name: 'Photos of Nils' })).toBeVisible();
  await expect(profile).not.toContainText('7 Hidden Road');
  await expect(profile).not.toContainText('NW1 6XE');
  await expectNoSeriousA11yViolations(a);
  await profile.getByRole('link', { name: 'Message' }).click();
  await expect(profile).toBeHidden();
  await expect(a.getByRole('heading', { name: 'Nils', level: 2 })).toBeVisible();
  // An empty thread starts with whom and when she matched.
  await expect(thread(a).getByText('You matched with Nils today')).toBeVisible();
  // A tap on his face in the thread's header opens the profile too; Escape puts it away.
  await a.getByRole('button', { name: "View Nils's profile" }).click();
  await expect(profile).toBeVisible();
  await a.keyboard.press('Escape');
  await expect(profile).toBeHidden();
  await openConversation(b, 'Mira');
  await expectNoSeriousA11yViolations(a);

  // Whitespace is never sent; Shift+Enter makes a new line; Enter sends.
  await input(a).fill('   ');
  await input(a).press('Enter');
  await expect(thread(a).locator('[data-message-id]')).toHaveCount(0);
  await input(a).fill('Hi Nils!');
  await input(a).press('Shift+Enter');
  await input(a).pressSequentially('How are you?');
  await input(a).press('Enter');
  await expect(input(a)).toHaveValue('');
  await expect(thread(b).getByText('Hi Nils!\nHow are you?')).toBeVisible();
  await expect(thread(a).getByText('You matched with Nils today')).toHaveCount(0);

  // B has the thread open, so A's message becomes read; A sees the receipt.
  await expect(thread(a).locator('[data-message-id]').last()).toHaveAttribute('data-status', 'read', {
    timeout: 30_000,
  });
  await expect(thread(a).locator('.message-status').last()).toHaveText('Read');

  // Typing indicator over the conversation channel.
  await input(b).pressSequentially('I am typ');
  await expect(a.getByText('Nils is typing...')).toBeVisible();
  await input(b).press('Enter');
  await expect(thread(a).getByText('I am typ')).toBeVisible();

  // A goes offline and writes three messages: pending, then all arrive once and in order.
  await a.context().setOffline(true);
  for (const text of ['offline one', 'offline two', 'offline three']) {
    await input(a).fill(text);
    await input(a).press('Enter');
  }
  const pendingRows = thread(a).locator('[data-status="pending"]');
  await expect(pendingRows).toHaveCount(3);
  await expect(pendingRows.first()).toContainText('Sending...');
  await a.context().setOffline(false);
  await expect(pendingRows).toHaveCount(0, { timeout: 60_000 });
  await expect(thread(b).getByText('offline three')).toBeVisible({ timeout: 60_000 });
  const seenByB = await thread(b).locator('[data-message-id] p:first-child').allTextContents();
  expect(seenByB.filter((t) => t.startsWith('offline'))).toEqual([
    'offline one',
    'offline two',
    'offline three',
  ]);

  // A draft survives a reload at once after typing (nothing typed is lost).
  await input(a).fill('a draft for later');
  await a.reload();
  // The list says when the last message came, as short as a chat list does (the hour, today).
  const nilsRow = a.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /Nils/ });
  // Written to, Nils has left the new matches' row for the conversations.
  await expect(a.getByRole('list', { name: 'New matches' })).toHaveCount(0);
  await expect(nilsRow.locator('time')).toHaveText(/^\d{1,2}:\d{2}(\s?[AP]M)?$/);
  await nilsRow.click();
  await expect(input(a)).toHaveValue('a draft for later');

  // Notifications: B has message notifications, marks one and then all read.
  await b.goto('/notifications');
  const list = b.getByRole('list', { name: 'Notifications' });
  await expect(list.getByText('New message from Mira').first()).toBeVisible();
  await expectNoSeriousA11yViolations(b);
  const unreadBefore = await list.locator('li[data-read="false"]').count();
  expect(unreadBefore).toBeGreaterThan(1);
  await list
    .getByRole('button', { name: /^Mark ".*" as read$/ })
    .first()
    .click();
  await expect(list.locator('li[data-read="false"]')).toHaveCount(unreadBefore - 1);
  // The next start paints the list this device showed last while the replica opens (held here); "Mark all as
  // read" from it waits for the replica, then lands.
  await holdReplicaOnNextLoad(b);
  await b.reload();
  await expect(list.getByText('New message from Mira').first()).toBeVisible();
  await expect(list.locator('li[data-read="false"]')).toHaveCount(unreadBefore - 1);
  await b.getByRole('button', { name: 'Mark all as read' }).click();
  expect(await replicaHasOpened(b)).toBe(false);
  await releaseReplica(b);
  await expect(b.getByText('You are all caught up.')).toBeVisible();
  await expect(list.locator('li[data-read="false"]')).toHaveCount(0);

  // Dashboard and account settings pass axe.
  await b.goto('/dashboard');
  await expect(b.getByRole('heading', { name: 'Profile completeness' })).toBeVisible();
  await expect(b.getByTestId('stat-matches')).toHaveText('1');
  await expectNoSeriousA11yViolations(b);

  // Data export: A's messages are in it, B's private fields and e-mail are not.
  await a.goto('/account');
  await expect(a.getByRole('heading', { name: 'Your data' })).toBeVisible();
  await expectNoSeriousA11yViolations(a);
  const [download] = await Promise.all([
    a.waitForEvent('download'),
    a.getByRole('button', { name: 'Download my data' }).click(),
  ]);
  const text = fs.readFileSync((await download.path())!, 'utf8');
  const doc = JSON.parse(text) as { messages: { content: string }[]; profile: { email: string } };
  expect(doc.profile.email).toBe(emailA);
  expect(doc.messages.map((m) => m.content)).toEqual(
    expect.arrayContaining([
      'Hi Nils!\nHow are you?',
      'offline one',
      'offline two',
      'offline three',
      'I am typ',
    ]),
  );
  for (const secret of ['7 Hidden Road', 'NW1 6XE', emailB]) expect(text).not.toContain(secret);
});
