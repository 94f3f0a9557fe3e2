// The landing pre-rendered at build time (decision 0023): served for / only, readable before any script,
// adopted by React as it is for a visitor, replaced for a member; no flash of the landing on other routes.
import { test, type Page } from './support/test.ts';
import {
  acceptNecessaryCookies,
  expect,
  makeEmail,
  PASSWORD,
  signIn,
  signUpAndConfirm,
} from './support/accounts.ts';

/** Console errors of the page (React reports a hydration mismatch there). */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

test('/ is served with the landing already in the HTML; other routes get the empty app shell', async ({
  request,
}) => {
  const landing = await (await request.get('/')).text();
  expect(landing).toContain('data-prerendered="landing"');
  expect(landing).toMatch(/<h1[^>]*>Find Your <span[^>]*>Perfect Match<\/span><\/h1>/);
  expect(landing).toContain('Start Your Journey');
  expect(landing).toContain('AI-powered premium dating');
  // Nothing inline: the CSP forbids inline scripts and styles.
  expect(landing).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  expect(landing).not.toMatch(/\sstyle=/);
  // Its head loads only the page's own small entry; the app's waits in an inert template until the page has
  // painted (decision 0074).
  const head = landing.split('</head>')[0]!;
  expect(head).toMatch(
    /<script type="module" crossorigin src="\/assets\/landing-start-[^"]+\.js"><\/script>/,
  );
  expect(head).not.toMatch(/\/assets\/index-[^"]+\.js/);
  expect(landing).toMatch(
    /<template id="app-scripts"><script type="module" crossorigin src="\/assets\/index-[^"]+\.js"><\/script>/,
  );

  for (const path of ['/dashboard', '/login', '/ai-features', '/index.html']) {
    const html = await (await request.get(path)).text();
    expect(html, path).toContain('<div id="root"></div>');
    expect(html, path).not.toContain('Find Your');
  }
});

test('the pre-rendered landing is readable and its links work with scripts off', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Find Your Perfect Match');
  await expect(page.getByRole('link', { name: 'Start Your Journey' })).toHaveAttribute('href', '/signup');
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
  await context.close();

  // The colours follow the system preference before a script picks the theme.
  for (const [colorScheme, background] of [
    ['light', 'rgb(255, 247, 248)'],
    ['dark', 'rgb(20, 16, 22)'],
  ] as const) {
    const themed = await browser.newContext({ javaScriptEnabled: false, colorScheme });
    const themedPage = await themed.newPage();
    await themedPage.goto('/');
    await expect(themedPage.locator('#root > div').first()).toHaveCSS('background-color', background);
    await themed.close();
  }
});

test('a first-time visitor keeps the pre-rendered page: React adopts it without a mismatch', async ({
  browser,
}) => {
  // No service worker: it would answer later visits with the plain app shell.
  const context = await browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 412, height: 823 },
  });
  const page = await context.newPage();
  const errors = collectErrors(page);
  await page.goto('/');
  const h1 = page.getByRole('heading', { level: 1 });
  await expect(h1).toHaveText('Find Your Perfect Match');
  // Live once adopted: the headline rotates and the menu opens.
  await expect(h1).toContainText('Soulmate', { timeout: 8000 });
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.locator('#mobile-nav')).toContainText('Safety Center');
  // The theme button points at the menu it opens (ids kept from the build-time render).
  const theme = page.locator('nav .md\\:hidden button', { hasText: 'Theme' });
  await theme.click();
  const menuId = await theme.getAttribute('aria-controls');
  expect(menuId).toBeTruthy();
  await expect(page.locator(`[id="${menuId}"]`)).toContainText('Colour theme');
  await page.keyboard.press('Escape');
  // The real figures arrive without the auth client on the first paint.
  await expect(page.getByTestId('public-stats')).toContainText('Members');
  await page.getByRole('button', { name: 'Necessary only' }).click();
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  // The app's scripts left the template for the head once the page had painted.
  await expect(page.locator('#app-scripts')).toHaveCount(0);
  await expect(page.locator('head script[src*="/assets/index-"]')).toHaveCount(1);
  expect(errors).toEqual([]);
  await context.close();
});

test('a tap on the landing before its code has arrived is kept and answered once it has', async ({
  browser,
}) => {
  const context = await browser.newContext({
    serviceWorkers: 'block',
    viewport: { width: 390, height: 844 },
  });
  const page = await context.newPage();
  const errors = collectErrors(page);
  // The app's entry is held back until the taps are made: they reach pre-rendered buttons with no handler yet.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = () => {};
  const requested = new Promise<void>((resolve) => (asked = resolve));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    asked();
    await released;
    await route.continue();
  });
  await page.goto('/');
  await requested;
  const root = page.locator('#root');
  await page.getByRole('button', { name: 'Necessary only' }).click();
  await page.getByRole('button', { name: 'Menu' }).click();
  // Held, not lost: the page says it is busy, and nothing has changed yet.
  await expect(root).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toBeVisible();
  release();
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  await expect(page.locator('#mobile-nav')).toContainText('Safety Center');
  await expect(root).not.toHaveAttribute('aria-busy', /.*/);
  expect(
    await page.evaluate(() => JSON.parse(localStorage.getItem('cookieConsent') ?? 'null')),
  ).toMatchObject({
    necessary: true,
    analytics: false,
  });
  // Once adopted, taps go straight to the app: the menu closes again.
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.locator('#mobile-nav')).toHaveCount(0);
  expect(errors).toEqual([]);
  await context.close();
});

test('a visitor who already chose cookies gets no banner from the pre-rendered page', async ({ browser }) => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const errors = collectErrors(page);
  await acceptNecessaryCookies(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Find Your');
  await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
  expect(errors).toEqual([]);
  await context.close();
});

test('a signed-in member at / gets the member view, not the visitor page', async ({ browser, request }) => {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await acceptNecessaryCookies(page);
  await signUpAndConfirm(page, request, makeEmail('landing-member'));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Find Your');
  await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get Started' })).toHaveCount(0);
  // Their next step, not the visitor's sign-up.
  await expect(page.getByTestId('member-welcome')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Start Your Journey' })).toHaveCount(0);
  await context.close();
});

test('a visitor on the pre-rendered page signs in through its links, and sees a sign-in in another tab', async ({
  browser,
  request,
}) => {
  const email = makeEmail('landing-visitor');
  const setup = await browser.newContext({ serviceWorkers: 'block' });
  const first = await setup.newPage();
  await acceptNecessaryCookies(first);
  await signUpAndConfirm(first, request, email);
  await setup.close();

  // Through the page's own links: the auth client is loaded on leaving /.
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await acceptNecessaryCookies(page);
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Get Started' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign In' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await context.close();

  // Signed in from another tab while / stays open: the open page follows.
  const shared = await browser.newContext({ serviceWorkers: 'block' });
  const landing = await shared.newPage();
  await acceptNecessaryCookies(landing);
  await landing.goto('/');
  await expect(landing.getByRole('link', { name: 'Get Started' })).toBeVisible();
  await signIn(await shared.newPage(), email);
  await expect(landing.getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(landing.getByRole('link', { name: 'Get Started' })).toHaveCount(0);
  await shared.close();
});
