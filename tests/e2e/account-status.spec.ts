// Pause and reactivate, schedule and cancel deletion, and the session rules (idle timeout, failed validity check) with a controlled clock.
import { test, type Page } from './support/test.ts';
import {
  expect,
  PASSWORD,
  acceptNecessaryCookies,
  makeEmail,
  signIn,
  signUpAndConfirm,
} from './support/accounts.ts';
import { getMemberId, getServiceAuth, serviceWrite } from './support/service-role.ts';
import { getAccessToken } from './support/stored-session.ts';

test.beforeEach(async ({ page }) => {
  await acceptNecessaryCookies(page);
});

test('a member pauses the account, sees the banner and reactivates; a pause whose end has passed ends when the app starts', async ({
  page,
  request,
  baseURL,
}) => {
  const email = makeEmail('pause');
  await signUpAndConfirm(page, request, email);
  await page.goto('/account');
  // Presence: the member joins online-users once subscribed and sees themself online.
  await expect(page.getByText('Online', { exact: true }).first()).toBeVisible();
  // After a launch their own dot says they are being connected until the channel has them, never
  // "Offline" while the device is online (every word it showed is kept by an observer set up first).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { ownDotWords: string[] }).ownDotWords = seen;
    new MutationObserver(() => {
      const words = document.querySelector('[data-testid="sidebar-name"] + [data-online]')?.textContent;
      if (words && seen.at(-1) !== words) seen.push(words);
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.reload();
  await expect(page.getByTestId('sidebar-name').locator('+ [data-online]')).toHaveText('Online');
  const words = await page.evaluate(() => (window as unknown as { ownDotWords: string[] }).ownDotWords);
  expect(words).not.toContain('Offline');
  expect(words.at(-1)).toBe('Online');
  await page.getByLabel('Pause for').selectOption('1-week');
  await page.getByRole('button', { name: 'Pause account' }).click();
  const banner = page.getByTestId('pause-banner');
  await expect(banner).toHaveText(/Your account is paused for 1 more week\. You're hidden from discovery\./);

  // The banner survives a reload (it comes from the server, not the page).
  await page.reload();
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Reactivate' }).click();
  await expect(page.getByText('Your account is now active and visible to other users.')).toBeVisible();
  await expect(banner).toHaveCount(0);

  // Paused again; the week goes by while the app is closed: the next start ends the pause.
  await page.getByLabel('Pause for').selectOption('1-week');
  await page.getByRole('button', { name: 'Pause account' }).click();
  await expect(banner).toBeVisible();
  const auth = await getServiceAuth(request, baseURL!);
  const id = await getMemberId(request, auth, email);
  await serviceWrite(request, auth, 'patch', `/rest/v1/profiles?id=eq.${id}`, {
    pause_end_date: new Date(Date.now() - 60_000).toISOString(),
  });
  await page.reload();
  await expect(page.getByRole('button', { name: 'Pause account' })).toBeVisible({ timeout: 15_000 });
  await expect(banner).toHaveCount(0);
});

test('a member schedules deletion with the password and cancels it', async ({ page, request }) => {
  await signUpAndConfirm(page, request, makeEmail('delete'));
  await page.goto('/account');
  await page.locator('#delete-password').fill('Wrong!Passw0rd');
  await page.getByRole('button', { name: 'Schedule deletion' }).click();
  await expect(page.getByText('Failed to schedule account deletion')).toBeVisible();
  await expect(page.getByTestId('deletion-banner')).toHaveCount(0);

  await page.locator('#delete-password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Schedule deletion' }).click();
  const banner = page.getByTestId('deletion-banner');
  await expect(banner).toContainText('Your account is scheduled for deletion in 30 days.');
  await expect(banner).not.toContainText('final warning');
  await expect(banner).toHaveAttribute('data-tone', 'yellow');

  await banner.getByRole('button', { name: 'Cancel deletion' }).click();
  await expect(page.getByText('Deletion Cancelled')).toBeVisible();
  await expect(banner).toHaveCount(0);
});

test('120 minutes without activity end the session with Session Timeout', async ({ page, request }) => {
  await page.clock.install();
  await signUpAndConfirm(page, request, makeEmail('idle'));
  await page.goto('/find-matches');
  await expect(page.getByRole('heading', { name: 'Find Matches' })).toBeVisible();

  await page.clock.fastForward('01:59:00');
  await expect(page).toHaveURL(/\/find-matches$/);
  await page.clock.fastForward('00:01:30');
  await expect(page.getByText('Your session has timed out for security reasons.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/find-matches');
  await expect(page).toHaveURL(/\/login$/);
});

test('a session ended on the server fails the periodic check with Session Expired', async ({
  page,
  request,
}) => {
  await page.clock.install();
  await signUpAndConfirm(page, request, makeEmail('expired'));
  await page.goto('/find-matches');
  await expect(page.getByRole('heading', { name: 'Find Matches' })).toBeVisible();

  const { anonKey } = (await (await request.get('/app-config.json')).json()) as { anonKey: string };
  const token = await getAccessToken(page);
  const out = await request.post('/auth/v1/logout?scope=global', {
    headers: { apikey: anonKey, authorization: `Bearer ${token}` },
  });
  expect(out.status()).toBeLessThan(300);

  await page.clock.fastForward('01:05');
  await expect(page.getByText('Your session has expired. Please log in again.')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
});

test('Sign Out ends this device only; Log out of all devices ends every session', async ({
  page,
  request,
  browser,
}) => {
  const email = makeEmail('devices');
  await signUpAndConfirm(page, request, email);
  const { anonKey } = (await (await request.get('/app-config.json')).json()) as { anonKey: string };
  const userStatus = async (p: Page) =>
    (
      await request.get('/auth/v1/user', {
        headers: { apikey: anonKey, authorization: `Bearer ${await getAccessToken(p)}` },
      })
    ).status();

  // A second device signs in, then signs out from the sidebar: the first device's session lives on.
  const laptop = await browser.newContext();
  const other = await laptop.newPage();
  await acceptNecessaryCookies(other);
  await signIn(other, email);
  await other.goto('/account');
  const otherToken = await getAccessToken(other);
  await other.getByRole('button', { name: 'Sign Out' }).click();
  await expect(other).toHaveURL(/\/$/);
  expect(
    (
      await request.get('/auth/v1/user', {
        headers: { apikey: anonKey, authorization: `Bearer ${otherToken}` },
      })
    ).status(),
  ).toBe(403);
  expect(await userStatus(page)).toBe(200);

  // It signs in again; the first device logs out of all devices: both sessions end.
  await signIn(other, email);
  const otherAgain = await getAccessToken(other);
  await page.goto('/account');
  await page.getByRole('button', { name: 'Log out of all devices' }).click();
  await expect(page.getByText('Logged out', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  expect(
    (
      await request.get('/auth/v1/user', {
        headers: { apikey: anonKey, authorization: `Bearer ${otherAgain}` },
      })
    ).status(),
  ).toBe(403);
  await laptop.close();
});

test('Help, Community and Safety keep a member in the member layout, and the session rules follow them onto public pages', async ({
  page,
  request,
}) => {
  await page.clock.install();
  await signUpAndConfirm(page, request, makeEmail('public-rules'));
  await page.goto('/dashboard');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  for (const label of ['Help', 'Community', 'Safety Center']) {
    await sidebar.getByRole('link', { name: label, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: label, exact: true })).toBeVisible();
    await expect(sidebar).toBeVisible();
  }

  // A public page outside the member layout, once the session is restored there (its header offers the
  // member's Dashboard): the idle rule still ends the session.
  await page.goto('/terms');
  await expect(sidebar).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  const refreshes: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('grant_type=refresh_token')) refreshes.push(r.url());
  });
  // Two hours pass with no activity. The page's clock is now two hours ahead of the server's: a token the server
  // issues still counts an hour on the page's clock, so at most one refresh is sent, never a storm.
  await page.clock.fastForward('02:00:30');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Your session has timed out for security reasons.')).toBeVisible();
  expect(refreshes.length).toBeLessThanOrEqual(1);
  await page.goto('/help');
  await expect(page.getByRole('heading', { level: 1, name: 'Help', exact: true })).toBeVisible();
  await expect(sidebar).toHaveCount(0);
});
