// Installability as Chromium itself judges it (DevTools protocol), the manifest's fields one by one, and
// the installed app's start URL opening offline from the service worker.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from './support/test.ts';

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

interface WebManifest {
  id: string;
  name: string;
  short_name: string;
  description: string;
  lang: string;
  start_url: string;
  scope: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: ManifestIcon[];
}

/** Loads the app and waits for its worker to install and control the page (no reload: it claims the page). */
async function openControlledApp(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: /Find Your/ })).toBeVisible();
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

test('Chromium finds no installability error and reads the manifest without errors', async ({
  playwright,
  baseURL,
}) => {
  // Chromium never installs from an off-the-record profile (Playwright's default contexts), so this test
  // uses a real profile in a folder of its own, launched like every other test's browser.
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-e2e-pwa-profile-'));
  const { launchOptions } = test.info().project.use;
  const context = await playwright.chromium.launchPersistentContext(profile, { ...launchOptions, baseURL });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await openControlledApp(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string; errorArguments: { name: string; value: string }[] }[];
    };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as {
      url: string;
      errors: { message: string; critical: number }[];
      data?: string;
    };
    expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
    expect(manifest.errors).toEqual([]);
    expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({ name: 'HeartSync', display: 'standalone' });
    await cdp.detach();
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});

test('the manifest names the app, starts standalone on the match list and has 192, 512 and maskable PNG icons', async ({
  page,
  request,
}) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const res = await request.get(href!);
  expect(res.ok()).toBe(true);
  expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await res.json()) as WebManifest;
  expect(manifest).toMatchObject({
    id: '/',
    name: 'HeartSync',
    short_name: 'HeartSync',
    lang: 'en',
    start_url: '/match-list?source=pwa',
    scope: '/',
    display: 'standalone',
  });
  expect(manifest.description.length).toBeGreaterThan(0);
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  // The browser's title bar and the installed app's splash use the same colour as the page's meta tag.
  const metaTheme = await page.locator('meta[name="theme-color"]').getAttribute('content');
  expect(manifest.theme_color.toLowerCase()).toBe(metaTheme?.toLowerCase());

  const icons = manifest.icons.map((i) => ({ sizes: i.sizes, type: i.type, purpose: i.purpose ?? 'any' }));
  expect(icons).toEqual(
    expect.arrayContaining([
      { sizes: '192x192', type: 'image/png', purpose: 'any' },
      { sizes: '512x512', type: 'image/png', purpose: 'any' },
      { sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ]),
  );
  for (const icon of manifest.icons) {
    const png = await request.get(icon.src);
    expect(png.ok(), icon.src).toBe(true);
    expect(png.headers()['content-type']).toBe('image/png');
    const body = await png.body();
    expect(body.subarray(0, 8).toString('hex'), `${icon.src} is a PNG`).toBe('89504e470d0a1a0a');
    // The IHDR chunk holds width and height as big-endian integers at bytes 16 and 20.
    const [w, h] = icon.sizes.split('x').map(Number);
    expect([body.readUInt32BE(16), body.readUInt32BE(20)], icon.src).toEqual([w, h]);
  }
});

test('the installed app opens offline at its start URL, served by the service worker', async ({
  page,
  context,
}) => {
  await openControlledApp(page);
  // What an installed app launches: the manifest's start_url, with no network at all.
  const startUrl = await page.evaluate(async () => {
    const href = document.querySelector('link[rel="manifest"]')?.getAttribute('href') ?? '';
    return ((await (await fetch(href)).json()) as { start_url: string }).start_url;
  });
  expect(new URL(startUrl, page.url()).pathname).toBe('/match-list');
  await context.setOffline(true);
  await page.goto(startUrl);
  // A visitor: the member route's guard sends to sign-in (a member lands on the list: offline-replica.spec).
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Welcome back')).toBeVisible();
  // The manifest and its icons are in the worker's precache, so the launcher keeps them offline too.
  const cached = await page.evaluate(async () => {
    const manifest = (await (await fetch('/manifest.webmanifest')).json()) as { icons: { src: string }[] };
    const icons = await Promise.all(
      manifest.icons.map(async (i) => (await caches.match(i.src, { ignoreSearch: true })) !== undefined),
    );
    return { icons };
  });
  expect(cached.icons.length).toBeGreaterThan(0);
  expect(cached.icons.every(Boolean)).toBe(true);
});

test('the first visit is controlled by its worker without a reload, so its next screen opens with no network', async ({
  page,
  context,
}) => {
  await openControlledApp(page);
  await context.setOffline(true);
  await page.getByRole('navigation').getByRole('link', { name: 'Sign In' }).first().click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Welcome back')).toBeVisible();
});
