// Messaging privacy and media between two members in two browser contexts: a hidden online status is never
// shown, read receipts turned off never show "Read", a chat photo arrives re-encoded without its EXIF, and a
// message arriving while the page is hidden raises a browser notification with the body cut to 50 characters.
import sharp from 'sharp';
import { test, type Page } from './support/test.ts';
import { expect } from './support/accounts.ts';
import {
  getServiceAuth,
  makeMatchedPair,
  messageInput,
  openConversation,
  serviceGet,
  thread,
} from './support/two-members.ts';

test.describe.configure({ mode: 'serial', timeout: 300_000 });

const EXIF_MARKER = 'HeartSyncSecretExifMarker';

interface PageProbe {
  notifications: { title: string; body?: string }[];
  hidden: boolean;
}

/** Captures Notification constructor calls and lets the test say whether the page is hidden. */
async function installNotificationProbe(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __probe: PageProbe; Notification: typeof Notification };
    const Real = w.Notification;
    w.__probe = { notifications: [], hidden: false };
    class CapturedNotification {
      // The context's granted permission decides, as it would for the real constructor.
      static get permission() {
        return Real.permission;
      }
      static requestPermission() {
        return Real.requestPermission();
      }
      onclick: unknown = null;
      constructor(title: string, options?: NotificationOptions) {
        w.__probe.notifications.push({ title, body: options?.body });
      }
      close() {}
    }
    w.Notification = CapturedNotification as unknown as typeof Notification;
    Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => w.__probe.hidden });
    Object.defineProperty(Document.prototype, 'visibilityState', {
      configurable: true,
      get: () => (w.__probe.hidden ? 'hidden' : 'visible'),
    });
  });
}

async function setHidden(page: Page, hidden: boolean): Promise<void> {
  await page.evaluate((h) => {
    (window as unknown as { __probe: PageProbe }).__probe.hidden = h;
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

const getNotifications = (page: Page) =>
  page.evaluate(() => (window as unknown as { __probe: PageProbe }).__probe.notifications);

/** The other member's online dot in the open thread's header. */
const threadDot = (page: Page, otherName: string) =>
  page.getByRole('region', { name: new RegExp(`Conversation with ${otherName}`) }).locator('[data-online]');

async function setPrivacy(page: Page, label: string, on: boolean): Promise<void> {
  await page.goto('/account');
  const box = page.getByRole('checkbox', { name: new RegExp(label) });
  await expect(box).toBeVisible();
  // The box shows the replica's value, which changes a moment after the click (a local write).
  if ((await box.isChecked()) !== on) await box.click();
  if (on) await expect(box).toBeChecked();
  else await expect(box).not.toBeChecked();
}

test('hidden online status, read receipts off, a chat photo without EXIF, and a notification while hidden', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const [a, b] = await makeMatchedPair(
    browser,
    request,
    auth,
    ['Oona', 'Pavel'],
    [{}, { permissions: ['notifications'] }],
  );
  await installNotificationProbe(b.page);
  const profileOf = async (id: string) =>
    (
      await serviceGet<{ show_online_status: boolean; read_receipts: boolean }[]>(
        request,
        auth,
        `/rest/v1/profiles?select=show_online_status,read_receipts&id=eq.${id}`,
      )
    )[0];

  await test.step('a member who hides their online status is never shown online', async () => {
    await openConversation(a.page, 'Pavel');
    await openConversation(b.page, 'Oona');
    // Both shown by default: each sees the other online.
    await expect(threadDot(a.page, 'Pavel')).toHaveAttribute('data-online', 'true', { timeout: 30_000 });
    await expect(threadDot(b.page, 'Oona')).toHaveAttribute('data-online', 'true', { timeout: 30_000 });

    await setPrivacy(b.page, 'Show my online status', false);
    await expect(b.page.locator('[data-hidden="true"]').getByText('Hidden')).toBeVisible();
    await expect(threadDot(a.page, 'Pavel')).toHaveAttribute('data-online', 'false');
    await expect
      .poll(async () => (await profileOf(b.id))?.show_online_status, { timeout: 30_000 })
      .toBe(false);

    // A fresh start of B's app never tracks; B still sees A. Across a whole refresh period A never sees B.
    await openConversation(b.page, 'Oona');
    await expect(threadDot(b.page, 'Oona')).toHaveAttribute('data-online', 'true', { timeout: 30_000 });
    const seenOnline: string[] = [];
    const deadline = Date.now() + 12_000;
    while (Date.now() < deadline) {
      seenOnline.push((await threadDot(a.page, 'Pavel').getAttribute('data-online')) ?? '');
      await a.page.waitForTimeout(500);
    }
    expect(seenOnline.filter((v) => v !== 'false')).toEqual([]);

    // Turned back on, B is shown again (the server reads the setting at each refresh).
    await setPrivacy(b.page, 'Show my online status', true);
    await expect(threadDot(a.page, 'Pavel')).toHaveAttribute('data-online', 'true', { timeout: 30_000 });
  });

  await test.step('with read receipts off the sender never sees "Read"', async () => {
    await setPrivacy(b.page, 'Send read receipts', false);
    await expect.poll(async () => (await profileOf(b.id))?.read_receipts, { timeout: 30_000 }).toBe(false);
    await openConversation(b.page, 'Oona');
    await messageInput(a.page).fill('Can you read this one?');
    await messageInput(a.page).press('Enter');
    await expect(thread(b.page).getByText('Can you read this one?')).toBeVisible({ timeout: 30_000 });
    // B's open, visible thread has read it: no unread badge on B's side.
    await expect(b.page.getByRole('list', { name: 'Conversations' }).getByLabel(/unread/)).toHaveCount(0);
    const sent = thread(a.page).locator('[data-message-id]').last();
    const messageId = await sent.getAttribute('data-message-id');
    // The server keeps it delivered: the receipt of B's device arrived, without a read time.
    await expect
      .poll(
        async () =>
          (
            await serviceGet<{ status: string; read_at: string | null; delivered_at: string | null }[]>(
              request,
              auth,
              `/rest/v1/messages?select=status,read_at,delivered_at&id=eq.${messageId}`,
            )
          )[0],
        { timeout: 30_000 },
      )
      .toMatchObject({ status: 'delivered', read_at: null, delivered_at: expect.any(String) });
    await expect(sent).toHaveAttribute('data-status', 'delivered', { timeout: 30_000 });
    await expect(sent.locator('.message-status')).toHaveText('Delivered');
    await expect(thread(a.page).getByText('Read', { exact: true })).toHaveCount(0);
  });

  await test.step('a chat photo reaches the other member re-encoded, its EXIF gone', async () => {
    const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#d04060' } })
      .jpeg()
      .withExif({ IFD0: { Artist: EXIF_MARKER, Copyright: EXIF_MARKER } })
      .toBuffer();
    expect(photo.includes(EXIF_MARKER)).toBe(true);
    await a.page
      .getByLabel('Send a photo')
      .setInputFiles({ name: 'holiday.jpg', mimeType: 'image/jpeg', buffer: photo });
    const image = thread(b.page).getByRole('img', { name: 'Photo sent in chat' }).last();
    await expect(image).toBeVisible({ timeout: 30_000 });
    const src = await image.getAttribute('src');
    const stored = Buffer.from(await (await request.get(src!)).body());
    expect(stored.includes(EXIF_MARKER)).toBe(false);
    const meta = await sharp(stored).metadata();
    expect(meta.exif).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([320, 240]);
    // The message's metadata went through the replica's upload queue as a JSON object.
    const [row] = await serviceGet<{ type: string; metadata: unknown }[]>(
      request,
      auth,
      `/rest/v1/messages?select=type,metadata&sender_id=eq.${a.id}&type=eq.image`,
    );
    expect(row).toEqual({ type: 'image', metadata: { width: 320, height: 240 } });
  });

  await test.step('a message arriving while the page is hidden raises a browser notification', async () => {
    await b.page.goto('/dashboard');
    await expect(b.page.getByRole('heading', { name: 'Profile completeness' })).toBeVisible();
    await setHidden(b.page, true);
    const long = 'This message is long enough that the notification has to cut it short somewhere';
    await messageInput(a.page).fill(long);
    await messageInput(a.page).press('Enter');
    await expect
      .poll(() => getNotifications(b.page), { timeout: 30_000 })
      .toEqual([{ title: 'New message from Oona', body: `${long.slice(0, 50)}...` }]);
    // Visible again: a new message is shown in the app, not as a browser notification.
    await setHidden(b.page, false);
    await messageInput(a.page).fill('and one more while you look');
    await messageInput(a.page).press('Enter');
    // B's device marks it delivered once its replica has it, i.e. once the watcher has seen it too.
    await expect(thread(a.page).locator('[data-message-id]').last()).toHaveAttribute(
      'data-status',
      'delivered',
      {
        timeout: 30_000,
      },
    );
    expect(await getNotifications(b.page)).toHaveLength(1);
  });
});
