// A new device's first sync: its replica is empty for the seconds the first download takes. Until it lands the
// member's screens say they are loading, never "No matches yet", "No conversations yet" or a count of 0 (which
// read as if her matches were lost), and they fill in when it does. The sync stream is held by a test proxy
// (a slow network) so that moment lasts as long as the journey needs.
import { test } from './support/test.ts';
import { expect, signIn } from './support/accounts.ts';
import { startNetworkSwitch } from './support/network-switch.ts';
import { createPasswordAccount } from './support/service-role.ts';
import { getServiceAuth, matchNewMember, newMemberPage, serviceWrite } from './support/two-members.ts';

const SYNC_STREAM = '/sync/stream';

test('a new device says it is loading, not that nothing is there, until its first sync lands', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const net = await startNetworkSwitch();
  try {
    const auth = await getServiceAuth(request, baseURL!);
    // Nina has a match waiting, made before this device ever signed in.
    const { id: nina, email } = await createPasswordAccount(request, auth, 'nina');
    await serviceWrite(request, auth, 'patch', `/rest/v1/profiles?id=eq.${nina}`, { name: 'Nina Example' });
    await matchNewMember(request, auth, nina, 'Omar Example');

    // Her new device: everything passes but the sync stream, which waits as on a slow network.
    net.hold(SYNC_STREAM);
    // Playwright sends loopback through a context's proxy on Chromium, the sync engine's shared worker too.
    const page = await newMemberPage(browser, { proxy: { server: net.server } });
    await signIn(page, email);
    // Each screen says it is loading, and none says the member has nothing.
    await page.goto('/dashboard');
    await expect
      .poll(() => net.held(), { message: 'the sync stream is asked for and held' })
      .toBeGreaterThan(0);
    await expect(page.getByRole('heading', { name: 'Your activity' })).toBeVisible();
    for (const stat of ['likes-waiting', 'matches', 'unread-messages', 'notifications'])
      await expect(page.getByTestId(`stat-${stat}`).getByRole('status', { name: 'Loading' })).toBeVisible();
    await expect(page.getByTestId('stat-matches')).not.toHaveText('0');

    await page.goto('/match-list');
    await expect(page.getByRole('heading', { name: 'My Matches' })).toBeVisible();
    await expect(page.getByText('Loading...')).toBeVisible();
    await expect(page.getByText('No matches yet')).toHaveCount(0);

    await page.goto('/messages');
    const list = page.getByRole('navigation', { name: 'Conversation list' });
    await expect(list.getByText('Loading...')).toBeVisible();
    await expect(page.getByText('No conversations yet')).toHaveCount(0);

    await page.goto('/notifications');
    await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    await expect(page.getByText('Loading...')).toBeVisible();
    await expect(page.getByText('No notifications yet.')).toHaveCount(0);

    await page.goto('/agent-settings');
    await expect(page.getByText('Loading your agents...')).toBeVisible();
    await expect(page.getByText('No agents yet')).toHaveCount(0);

    // My Profile waits for the member's own row (its form saves over it): its heading and the shapes of its
    // sections, never an empty form that reads as if her name were lost.
    await page.goto('/profile');
    await expect(page.getByRole('heading', { level: 1, name: 'My Profile' })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Loading your profile' })).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveCount(0);
    const streamsPassed = () => net.forwarded.filter((r) => r.path === SYNC_STREAM).length;
    expect(streamsPassed(), 'no sync stream went through while the screens were looked at').toBe(0);

    // The download lands while My Matches is open: the match shows, and "No matches yet" never did, not even
    // for the moment between the engine's "synced" and the page's query reading the rows it brought.
    await page.goto('/match-list');
    await expect(page.getByText('Loading...')).toBeVisible();
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { emptySeen: string[] }).emptySeen = seen;
      new MutationObserver(() => {
        if (document.body.textContent?.includes('No matches yet')) seen.push('No matches yet');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    net.release();
    await expect.poll(streamsPassed).toBeGreaterThan(0);
    await expect(page.getByTestId('match-row').filter({ hasText: 'Omar' })).toBeVisible({ timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { emptySeen: string[] }).emptySeen)).toEqual([]);
    // What was waiting shows elsewhere too, and a screen with truly nothing says so.
    await page.goto('/agent-settings');
    await expect(page.getByText('No agents yet')).toBeVisible({ timeout: 30_000 });
    await page.goto('/messages');
    await expect(
      page.getByRole('list', { name: 'New matches' }).getByRole('button', { name: /Omar/ }),
    ).toBeVisible({ timeout: 30_000 });
    await page.goto('/profile');
    await expect(page.getByLabel('Name')).toHaveValue('Nina Example', { timeout: 30_000 });
    await page.goto('/dashboard');
    await expect(page.getByTestId('stat-matches')).toHaveText('1');
  } finally {
    await net.close();
  }
});
