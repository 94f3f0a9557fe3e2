// The public area in the browser: landing, navigation, every public page's accessibility, cookie consent, themes, keyboard.
import AxeBuilder from '@axe-core/playwright';
import { test, type Page } from './support/test.ts';
import { acceptNecessaryCookies, expect, makeEmail } from './support/accounts.ts';

const PUBLIC_PAGES: Array<[string, RegExp]> = [
  ['/', /Find Your/],
  ['/ai-features', /AI Features/],
  ['/how-it-works', /How It Works/],
  ['/success-stories', /Success Stories/],
  ['/compare-apps', /Compare Apps/],
  ['/community', /Community/],
  ['/safety-center', /Safety Center/],
  ['/help', /Help/],
  ['/contact', /Contact/],
  ['/terms', /Terms of Service/],
  ['/privacy', /Privacy Policy/],
  ['/cookies', /Cookie Policy/],
  ['/manage-subscription', /Manage Subscription/],
  ['/login', /Welcome back/],
  ['/signup', /Create your account/],
  ['/forgot-password', /Forgot your password/],
  ['/reset-password', /Reset your password/],
  ['/email-confirmation-pending', /Check your email/],
];

async function expectNoSeriousViolations(page: Page, path: string) {
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    path,
  ).toEqual([]);
}

for (const [path, heading] of PUBLIC_PAGES) {
  test(`${path} shows its content with no serious accessibility violation`, async ({ page }) => {
    await acceptNecessaryCookies(page);
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expectNoSeriousViolations(page, path);
  });
}

test('dark mode keeps the contrast of the landing and sign-in pages', async ({ page }) => {
  await acceptNecessaryCookies(page);
  await page.addInitScript(() => localStorage.setItem('heartsync.darkMode', 'true'));
  for (const path of ['/', '/login']) {
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('data-mode', 'dark');
    await expectNoSeriousViolations(page, `${path} (dark)`);
  }
});

test('the landing page: headline, features, call to action, footer and scroll buttons', async ({ page }) => {
  await acceptNecessaryCookies(page);
  await page.goto('/');
  const h1 = page.getByRole('heading', { level: 1 });
  await expect(h1).toContainText('Find Your');
  await expect(h1).toContainText(/Perfect Match|Soulmate|True Love/);
  await expect(h1).toContainText('Soulmate', { timeout: 8000 });

  for (const title of ['Smart Matching', 'Safe & Secure', 'Real Results']) {
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title }) });
    await expect(card.getByTestId('feature-details')).toBeHidden();
    await card.hover();
    await expect(card.getByTestId('feature-details')).toBeVisible();
  }

  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText('AI-powered premium dating');
  await expect(footer).toContainText('© 2025');
  for (const link of await footer.getByRole('list', { name: 'Social media' }).getByRole('link').all()) {
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noopener/);
  }

  // Scroll buttons appear past 300 and 500 px; scrolling back up closes the action menu.
  await expect(page.getByRole('button', { name: 'Back to top' })).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 400));
  await expect(page.getByRole('button', { name: 'Back to top' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Open quick actions' })).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 650));
  await page.getByRole('button', { name: 'Open quick actions' }).click();
  for (const action of ['Create Profile', 'Try AI Chat', 'Back to Top'])
    await expect(page.getByRole('button', { name: action, exact: true })).toBeVisible();
  // One way back to the top at a time: the floating one steps aside for the menu's, and for the footer's.
  await expect(page.getByRole('button', { name: 'Back to top', exact: true })).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 600));
  await expect(page.getByRole('button', { name: 'Create Profile' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Open quick actions' }).click();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(footer.getByRole('button', { name: 'Top' })).toBeInViewport();
  await expect(page.getByRole('button', { name: 'Back to top', exact: true })).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 650));
  await page.getByRole('button', { name: 'Open quick actions' }).click();
  await page.getByRole('button', { name: 'Create Profile' }).click();
  await expect(page).toHaveURL(/\/signup$/);

  await page.goto('/');
  await page.getByRole('link', { name: 'Start Your Journey' }).click();
  await expect(page).toHaveURL(/\/signup$/);
});

test('the newsletter block is on the home page only and records the address', async ({ page }) => {
  await acceptNecessaryCookies(page);
  await page.goto('/help');
  await expect(page.getByTestId('newsletter')).toHaveCount(0);
  await page.goto('/');
  const block = page.getByTestId('newsletter');
  await block.getByRole('button', { name: 'Stay Connected' }).click();
  await block.getByLabel('Email address').fill(makeEmail('news'));
  await block.getByRole('button', { name: 'Subscribe' }).click();
  await expect(block.getByRole('button', { name: 'Subscribed' })).toBeVisible();
  await expect(block.getByLabel('Email address')).toHaveValue('');
  // After 3 s the check mark goes and the block collapses.
  await expect(block.getByLabel('Email address')).toHaveCount(0, { timeout: 6000 });
});

test('cookie consent: banner until a choice, record stored, shown again when unreadable', async ({
  page,
}) => {
  await page.goto('/');
  const banner = page.getByRole('region', { name: 'Cookie consent' });
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Necessary only' }).click();
  await expect(banner).toHaveCount(0);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('cookieConsent') ?? 'null'));
  expect(stored).toMatchObject({ consented: true, necessary: true, analytics: false, marketing: false });
  expect(Number.isNaN(Date.parse(stored.date))).toBe(false);
  await page.reload();
  await expect(banner).toHaveCount(0);

  await page.evaluate(() => localStorage.setItem('cookieConsent', '{broken'));
  await page.reload();
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Accept all' }).click();
  // As a person would: the choice is made once the banner goes (a tap before the app arrives is answered then).
  await expect(banner).toHaveCount(0);
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('cookieConsent') ?? '{}').analytics)).toBe(
    true,
  );
});

test('a theme and dark mode chosen in the menu survive a reload', async ({ page }) => {
  await acceptNecessaryCookies(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'light');
  await page.getByRole('button', { name: 'Theme' }).first().click();
  await page.getByRole('button', { name: /Ocean/ }).click();
  await page.getByRole('switch', { name: 'Dark mode' }).check();
  await expect(html).toHaveAttribute('data-theme', 'ocean');
  await expect(html).toHaveAttribute('data-mode', 'dark');
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'ocean');
  await expect(html).toHaveAttribute('data-mode', 'dark');
  // Dark and Midnight are dark themes: the switch says so instead of seeming to do nothing.
  await page.getByRole('button', { name: 'Theme' }).first().click();
  await page.getByRole('button', { name: /Midnight/ }).click();
  await expect(page.getByRole('switch', { name: 'Dark mode' })).toBeDisabled();
  await expect(page.getByRole('switch', { name: 'Dark mode' })).toBeChecked();
  await expect(page.getByText('Midnight is always dark.')).toBeVisible();
});

test('the default theme follows the system preference', async ({ page }) => {
  await acceptNecessaryCookies(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('data-mode', 'dark');
});

test('the main controls are reachable by keyboard', async ({ page }) => {
  await acceptNecessaryCookies(page);
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  const reached = new Set<string>();
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press('Tab');
    reached.add(
      await page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        const label = el?.labels?.[0]?.textContent;
        return (el?.getAttribute('aria-label') || label || el?.textContent || el?.id || '').trim();
      }),
    );
  }
  for (const name of [
    'Email',
    'Password',
    'Show password',
    'Remember me',
    'Forgot password?',
    'Sign In',
    'Create Account',
  ])
    expect([...reached], name).toContain(name);

  // F8 moves focus to the notifications region.
  await page.keyboard.press('F8');
  expect(
    await page.evaluate(() => document.activeElement?.closest('section')?.getAttribute('aria-label')),
  ).toBe('Notifications (F8)');
});
