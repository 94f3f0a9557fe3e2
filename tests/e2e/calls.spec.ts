// Calls between two premium matches (issue 18), two Chromium contexts with fake camera and microphone
// (playwright.config.ts): A video-calls B, B's page rings with a browser notification, B accepts, media flows
// both ways (bytes received grow on both sides, from getStats), A mutes, B ends; the thread shows one call card
// on both sides. Also: a free pair is refused with "Premium Required", a declined audio call, an audio call
// that connects without a camera, and a ring nobody answers ends as missed after 30 s (Playwright's clock).
// Peer-to-peer calls never load Stream's SDK (its chunk, stream-transport-*.js).
import type { Page, Request } from '@playwright/test';
import { expect } from './support/accounts.ts';
import { getServiceAuth, grantPlan } from './support/service-role.ts';
import { makeMatchedPair, openConversation, thread } from './support/two-members.ts';
import { test } from './support/test.ts';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

/** Records the browser notifications a page shows (title, body, closed). */
async function recordNotifications(page: Page): Promise<void> {
  await page.context().grantPermissions(['notifications']);
  await page.addInitScript(() => {
    const Original = window.Notification;
    const shown: { title: string; body: string; closed: boolean }[] = [];
    (window as unknown as { __notifications: typeof shown }).__notifications = shown;
    class Recording extends Original {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        const entry = { title, body: options?.body ?? '', closed: false };
        shown.push(entry);
        const close = this.close.bind(this);
        this.close = () => {
          entry.closed = true;
          close();
        };
      }
    }
    window.Notification = Recording as typeof Notification;
  });
}

const notifications = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __notifications: { title: string; body: string; closed: boolean }[] })
        .__notifications,
  );

const callScreen = (page: Page) => page.getByTestId('call-screen');

async function bytesReceived(page: Page): Promise<number> {
  return Number(await callScreen(page).getAttribute('data-bytes-received'));
}

/** Media flows into this page: the bytes it received keep growing. */
async function expectMediaFlowing(page: Page): Promise<void> {
  await expect(callScreen(page)).toHaveAttribute('data-connection', 'joined', { timeout: 30_000 });
  await expect.poll(() => bytesReceived(page), { timeout: 20_000 }).toBeGreaterThan(0);
  const first = await bytesReceived(page);
  await expect.poll(() => bytesReceived(page), { timeout: 20_000 }).toBeGreaterThan(first);
}

function watchStreamChunk(pages: Page[]): string[] {
  const loaded: string[] = [];
  for (const p of pages)
    p.on('request', (r: Request) => {
      if (/stream-transport|video-react-sdk/.test(r.url())) loaded.push(r.url());
    });
  return loaded;
}

test('a video call rings, connects both ways, mutes and ends with a card on both sides', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const [ann, bea] = await makeMatchedPair(browser, request, auth, ['Ann', 'Bea']);
  const streamChunks = watchStreamChunk([ann.page, bea.page]);
  await recordNotifications(bea.page);

  // Not both premium: the SQL refuses, in the spec's words.
  await grantPlan(request, auth, ann.id, 'premium');
  await openConversation(ann.page, 'Bea');
  await ann.page.getByRole('button', { name: 'Video call with Bea' }).click();
  await expect(ann.page.getByText('Premium Required', { exact: true })).toBeVisible();
  await expect(
    ann.page.getByText('Both users must have a premium subscription to start a video call.'),
  ).toBeVisible();
  await expect(callScreen(ann.page)).toHaveCount(0);

  await grantPlan(request, auth, bea.id, 'premium');
  // Bea is on another member page: the call reaches her there.
  await bea.page.goto('/dashboard');
  await ann.page.getByRole('button', { name: 'Video call with Bea' }).click();
  await expect(callScreen(ann.page)).toBeVisible();
  await expect(ann.page.getByTestId('call-status')).toContainText('Calling...');

  const ringing = bea.page.getByRole('alertdialog', { name: 'Incoming video call from Ann' });
  await expect(ringing).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(() => notifications(bea.page))
    .toContainEqual({
      title: 'Incoming video call',
      body: 'Ann is calling you',
      closed: false,
    });
  await ringing.getByRole('button', { name: 'Accept' }).click();
  await expect(ringing).toHaveCount(0);
  // Answering closes the notification.
  await expect.poll(async () => (await notifications(bea.page))[0]?.closed).toBe(true);

  await expectMediaFlowing(ann.page);
  await expectMediaFlowing(bea.page);
  await expect(ann.page.getByRole('dialog', { name: 'Video call with Bea' })).toBeVisible();
  await expect(ann.page.getByLabel('Your camera')).toBeVisible();
  await expect(ann.page.getByTestId('call-status')).toContainText(/Video call · \d\d:\d\d/);

  await ann.page.getByRole('button', { name: 'Mute' }).click();
  await expect(callScreen(ann.page)).toHaveAttribute('data-mic', 'off');
  await expect(ann.page.getByRole('button', { name: 'Unmute' })).toHaveAttribute('aria-pressed', 'true');
  await ann.page.getByRole('button', { name: 'Turn camera off' }).click();
  await expect(ann.page.getByRole('button', { name: 'Turn camera on' })).toBeVisible();
  // Bea sees Ann's photo instead of a frozen picture.
  await expect(bea.page.getByLabel("Ann's video")).toBeHidden();
  await ann.page.getByRole('button', { name: 'Turn camera on' }).click();
  await expect(bea.page.getByLabel("Ann's video")).toBeVisible();
  // Switching to audio drops the camera for the rest of the call; the call goes on.
  await ann.page.getByRole('button', { name: 'Switch to audio' }).click();
  await expect(ann.page.getByRole('button', { name: /camera/ })).toHaveCount(0);
  await expect(ann.page.getByLabel('Your camera')).toHaveCount(0);
  await expect(bea.page.getByLabel("Ann's video")).toBeHidden();
  await expect(callScreen(ann.page)).toHaveAttribute('data-connection', 'joined');

  await bea.page.getByRole('button', { name: 'End call' }).click();
  await expect(callScreen(bea.page)).toHaveCount(0);
  await expect(callScreen(ann.page)).toHaveCount(0, { timeout: 15_000 });
  await expect(ann.page.getByText('Bea ended the call.')).toBeVisible();

  // One card per call on both sides, with its length, never the raw steps.
  await expect(thread(ann.page).locator('[data-call-card="video_call_end"]')).toHaveText(
    /Video call, \d+ s/,
    {
      timeout: 15_000,
    },
  );
  await openConversation(bea.page, 'Ann');
  await expect(thread(bea.page).locator('[data-call-card]')).toHaveCount(1);
  await expect(thread(bea.page).locator('[data-call-card="video_call_end"]')).toHaveText(/Video call, \d+ s/);
  expect(streamChunks).toEqual([]);
});

test('an audio call can be declined, then connects without a camera', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const [cal, dee] = await makeMatchedPair(browser, request, auth, ['Cal', 'Dee']);
  await dee.page.setViewportSize({ width: 390, height: 844 });
  const streamChunks = watchStreamChunk([cal.page, dee.page]);
  for (const m of [cal, dee]) await grantPlan(request, auth, m.id, 'premium');
  await openConversation(cal.page, 'Dee');
  await dee.page.goto('/match-list');
  await expect(dee.page.getByTestId('match-row')).toHaveCount(1);

  await cal.page.getByRole('button', { name: 'Audio call with Dee' }).click();
  const ringing = dee.page.getByRole('alertdialog', { name: 'Incoming audio call from Cal' });
  await expect(ringing).toBeVisible({ timeout: 20_000 });
  await ringing.getByRole('button', { name: 'Decline' }).click();
  await expect(callScreen(cal.page)).toHaveCount(0, { timeout: 15_000 });
  await expect(cal.page.getByText('Dee declined the call.')).toBeVisible();
  await expect(thread(cal.page).locator('[data-call-card="video_call_decline"]')).toHaveText(
    /Audio call declined/,
  );

  // Again: Dee answers on her phone-sized screen, on her match list.
  await cal.page.getByRole('button', { name: 'Audio call with Dee' }).click();
  await expect(ringing).toBeVisible({ timeout: 20_000 });
  await ringing.getByRole('button', { name: 'Accept' }).click();
  await expectMediaFlowing(dee.page);
  await expectMediaFlowing(cal.page);
  await expect(dee.page.getByRole('dialog', { name: 'Audio call with Cal' })).toBeVisible();
  // Microphone only: no camera control, no preview.
  await expect(dee.page.getByRole('button', { name: /camera/i })).toHaveCount(0);
  await expect(dee.page.getByLabel('Your camera')).toHaveCount(0);
  await expect(dee.page.getByRole('button', { name: 'End call' })).toBeInViewport();
  await cal.page.getByRole('button', { name: 'End call' }).click();
  await expect(callScreen(dee.page)).toHaveCount(0, { timeout: 15_000 });
  await expect(dee.page.getByText('Cal ended the call.')).toBeVisible();
  await expect(thread(cal.page).locator('[data-call-card="video_call_end"]')).toHaveText(
    /Audio call, \d+ s/,
    {
      timeout: 15_000,
    },
  );
  expect(streamChunks).toEqual([]);
});

test('a call nobody answers ends after 30 seconds as missed', async ({ browser, request, baseURL }) => {
  const auth = await getServiceAuth(request, baseURL!);
  const [eve, fay] = await makeMatchedPair(browser, request, auth, ['Eve', 'Fay']);
  for (const m of [eve, fay]) await grantPlan(request, auth, m.id, 'premium');
  await eve.page.clock.install();
  await openConversation(eve.page, 'Fay');
  await fay.page.goto('/dashboard');
  await eve.page.getByRole('button', { name: 'Video call with Fay' }).click();
  await expect(fay.page.getByRole('alertdialog', { name: 'Incoming video call from Eve' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(eve.page.getByTestId('call-status')).toContainText('Calling...');
  await eve.page.clock.fastForward('00:31');
  await expect(callScreen(eve.page)).toHaveCount(0);
  await expect(eve.page.getByText('Fay did not answer.')).toBeVisible();
  await expect(thread(eve.page).locator('[data-call-card="video_call_timeout"]')).toHaveText(
    /Video call, no answer/,
    { timeout: 15_000 },
  );
  // Fay's card stops ringing and her thread says what she missed.
  await expect(fay.page.getByRole('alertdialog')).toHaveCount(0, { timeout: 15_000 });
  await openConversation(fay.page, 'Eve');
  await expect(thread(fay.page).locator('[data-call-card="video_call_timeout"]')).toHaveText(
    /Missed video call/,
  );
});
