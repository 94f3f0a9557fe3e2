// Navigation that gets out of the way (issue 20): on a phone the member menu closes when a link in it is
// followed (and stays open when opened again before a slow page shows), on Escape (focus back on its button) and on a tap outside; on a desktop Ctrl+B toggles the sidebar
// but never while the member types in a field, and the sidebar's theme menu opens inside the screen; likes in
// a row are one notification.
import { acceptNecessaryCookies, expect, makeEmail, signUpAndConfirm } from './support/accounts.ts';
import { getMemberId, getServiceAuth, serviceWrite } from './support/service-role.ts';
import { test } from './support/test.ts';

test('the phone menu closes on navigation, Escape and a tap outside; Ctrl+B leaves text fields alone', async ({
  browser,
  request,
  baseURL,
}) => {
  // No service worker: the page's code comes over the network, where this journey holds it back.
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await acceptNecessaryCookies(page);
  await signUpAndConfirm(page, request, makeEmail('nav'));
  await page.goto('/dashboard');
  const menu = page.locator('nav[aria-label="Member mobile"] details');
  const button = menu.locator('summary');
  await expect(button).toBeVisible({ timeout: 30_000 });

  // Find Matches' code arrives late (held here): the address changes at once, the page once its code is in. The
  // menu closes as the link is followed; opened again before the page shows, the page showing leaves it open.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const discoveryCode = /\/assets\/discovery-page-[\w-]+\.js$/;
  await page.route(discoveryCode, async (route) => {
    await held;
    await route.continue();
  });
  await button.click();
  await expect(menu).toHaveAttribute('open', '');
  await menu.getByRole('link', { name: 'Find Matches' }).click();
  await expect(page).toHaveURL(/\/find-matches$/);
  await expect(menu).not.toHaveAttribute('open');
  await button.click();
  await expect(menu).toHaveAttribute('open', '');
  release();
  await expect(page.getByRole('heading', { level: 1, name: 'Find Matches' })).toBeVisible();
  await expect(menu).toHaveAttribute('open', '');
  await page.unroute(discoveryCode);

  await page.keyboard.press('Escape');
  await expect(menu).not.toHaveAttribute('open');
  await expect(button).toBeFocused();

  // A tap beside the menu's panel (it is at most 90% of the screen wide).
  await button.click();
  await expect(menu).toHaveAttribute('open', '');
  await page.mouse.click(385, 700);
  await expect(menu).not.toHaveAttribute('open');

  // Desktop: Ctrl+B toggles the sidebar, except in a text field.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/profile');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await expect(sidebar).toHaveAttribute('data-state', 'expanded', { timeout: 30_000 });
  const field = page.getByRole('textbox').first();
  await field.click();
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('Control+b');
  await expect(sidebar).toHaveAttribute('data-state', 'collapsed');

  // The sidebar's theme menu opens fully inside the screen, expanded or collapsed.
  for (const state of ['collapsed', 'expanded']) {
    if ((await sidebar.getAttribute('data-state')) !== state) await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', state);
    const themeButton = sidebar.getByRole('button', { name: 'Theme' });
    await themeButton.click();
    const panel = page.locator(`[id="${await themeButton.getAttribute('aria-controls')}"]`);
    await expect(themeButton).toBeInViewport({ ratio: 1 });
    await expect(panel).toBeInViewport({ ratio: 1 });
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
  }
  await context.close();
});

test('moving between member pages asks nothing of the server for the session; a page load checks a pause once', async ({
  page,
  request,
}) => {
  await acceptNecessaryCookies(page);
  const pauseChecks: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/rest/v1/rpc/reactivate_expired_pause'))
      pauseChecks.push(new URL(page.url()).pathname);
  });
  await signUpAndConfirm(page, request, makeEmail('nav-session'));
  await expect(page.getByRole('heading', { name: 'Build your profile' })).toBeVisible({ timeout: 30_000 });
  // The confirmation link's page: one check, although the sign-in reports the session twice.
  await expect.poll(() => pauseChecks.length).toBe(1);
  pauseChecks.length = 0;

  // Links in the app (no page load): each used to subscribe to the auth client again, and check again.
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  for (const [link, path] of [
    ['Find Matches', /\/find-matches$/],
    ['Likes', /\/likes$/],
    ['Dashboard', /\/dashboard$/],
  ] as const) {
    await sidebar.getByRole('link', { name: link, exact: true }).click();
    await expect(page).toHaveURL(path);
    await expect(page.getByRole('main')).toBeVisible();
  }
  await page.getByRole('main').getByRole('heading', { level: 1 }).first().waitFor();
  expect(pauseChecks).toEqual([]);

  // A page load is an app start: checked once.
  await page.reload();
  await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible({
    timeout: 30_000,
  });
  await expect.poll(() => pauseChecks.length).toBe(1);
});

test('likes in a row are one notification, "3 people liked you", read all at once', async ({
  page,
  request,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await acceptNecessaryCookies(page);
  const email = makeEmail('grouped');
  await signUpAndConfirm(page, request, email);
  const auth = await getServiceAuth(request, baseURL!);
  const id = await getMemberId(request, auth, email);
  for (let i = 0; i < 3; i++)
    await serviceWrite(request, auth, 'post', '/rest/v1/notifications', {
      user_id: id,
      type: 'like',
      title: 'Someone liked you',
      body: 'See who likes you on your Likes page.',
      link: '/likes',
    });
  await page.goto('/notifications');
  const list = page.getByRole('list', { name: 'Notifications' });
  await expect(list.getByRole('listitem')).toHaveCount(1, { timeout: 30_000 });
  await expect(list.getByRole('listitem')).toContainText('3 people liked you');
  await expect(page.locator('#main').getByRole('status')).toHaveText('3 unread');
  await list.getByRole('button', { name: 'Mark "3 people liked you" as read' }).click();
  await expect(page.getByText('You are all caught up.')).toBeVisible();
  await expect(list.getByRole('listitem')).toHaveAttribute('data-read', 'true');
});
