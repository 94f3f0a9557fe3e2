// The update prompt against a real version change: build A controls the page, the server then serves
// build B, and the member's Reload activates B's service worker and reloads onto B's app shell.
// A server of its own (the real one, over a snapshot database) serves a folder this file swaps, so the
// run's shared server and its build are never touched.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './support/test.ts';
import { build, type Plugin } from 'vite';
import { parseConfig } from '../../server/config.ts';
import { createServer, type Server } from '../../server/create-server.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-databases.ts';
import { getFreePort } from '../support/test-server.ts';

const root = path.resolve(import.meta.dirname, '../..');
/** The build the global setup made (build A). */
const buildA = process.env['E2E_DIST_DIR']
  ? path.resolve(process.env['E2E_DIST_DIR'])
  : path.join(root, 'dist');
/** Build B carries this in its app shell, so the page can tell which version it runs. */
const BUILD_B = 'update-test-b';

/** Marks the app shell of build B; everything else is the project's own build configuration. */
function markBuild(id: string): Plugin {
  return {
    name: 'heartsync-e2e-build-mark',
    transformIndexHtml: (html) =>
      html.replace('</head>', `<meta name="heartsync-build" content="${id}" /></head>`),
  };
}

function replaceFolderContents(folder: string, from: string): void {
  for (const entry of fs.readdirSync(folder))
    fs.rmSync(path.join(folder, entry), { recursive: true, force: true });
  fs.cpSync(from, folder, { recursive: true });
}

let tmp: string;
let served: string;
let buildB: string;
let db: TestDatabase;
let server: Server;
let origin: string;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  if (!fs.existsSync(path.join(buildA, 'sw.js')))
    throw new Error(`no built app with a service worker in ${buildA}`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-e2e-pwa-update-'));
  served = path.join(tmp, 'served');
  buildB = path.join(tmp, 'build-b');
  fs.mkdirSync(served);
  fs.cpSync(buildA, served, { recursive: true });
  await build({
    root,
    logLevel: 'error',
    plugins: [markBuild(BUILD_B)],
    build: { outDir: buildB, emptyOutDir: true },
  });
  db = await createTestDatabase('pglite');
  const port = await getFreePort();
  origin = `http://127.0.0.1:${port}`;
  const config = parseConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    DATA_DIR: path.join(tmp, 'data'),
    DEMO: '0',
    LOG_LEVEL: 'silent',
  });
  server = await createServer(config, { db, skipMigrations: true, logger: false, distDir: served });
  await server.app.listen({ port, host: '127.0.0.1' });
});

test.afterAll(async () => {
  await server?.close();
  await db?.destroy();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

test('a new version waiting shows the update prompt, and Reload activates it and reloads onto it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const buildMark = page.locator('meta[name="heartsync-build"]');
  const prompt = page.getByRole('status').filter({ hasText: 'A new version is available' });

  // Build A installs its worker; after a reload the worker controls the page.
  await page.goto(`${origin}/`);
  await expect(page.getByRole('heading', { level: 1, name: /Find Your/ })).toBeVisible();
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect(page.getByRole('heading', { level: 1, name: /Find Your/ })).toBeVisible();
  await expect(buildMark).toHaveCount(0);
  await expect(prompt).toHaveCount(0);

  // The server now serves build B. Its new worker installs beside A's and waits: the prompt appears.
  replaceFolderContents(served, buildB);
  const activeScript = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    if (!registration) throw new Error('no service worker registration');
    await registration.update();
    return registration.active?.scriptURL ?? null;
  });
  expect(activeScript).toBe(`${origin}/sw.js`);
  await expect(prompt).toBeVisible({ timeout: 30_000 });
  await expect(prompt.getByRole('button', { name: 'Reload' })).toBeVisible();
  expect(
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state),
  ).toBe('installed');
  // Until the member says so, the page stays on A (still served by A's worker).
  await expect(buildMark).toHaveCount(0);

  // Reload: B's worker takes over and the page reloads onto B's app shell.
  const reloaded = page.waitForEvent('load');
  await prompt.getByRole('button', { name: 'Reload' }).click();
  await reloaded;
  await expect(buildMark).toHaveAttribute('content', BUILD_B);
  await expect(page.getByRole('heading', { level: 1, name: /Find Your/ })).toBeVisible();
  await expect(prompt).toHaveCount(0);
  const after = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    return {
      waiting: registration?.waiting ?? null,
      activeState: registration?.active?.state,
      controlled: navigator.serviceWorker.controller !== null,
    };
  });
  expect(after).toEqual({ waiting: null, activeState: 'activated', controlled: true });
  // The shell now comes from B's worker even without the network's help.
  const cachedShell = await page.evaluate(async () =>
    (await caches.match('/index.html', { ignoreSearch: true }))?.text(),
  );
  expect(cachedShell).toContain(`content="${BUILD_B}"`);
});

test('Later dismisses the prompt and the page keeps running the version it has', async ({ page }) => {
  test.setTimeout(120_000);
  // This test starts from build B being served and controlling; a rebuilt A then waits.
  replaceFolderContents(served, buildB);
  const prompt = page.getByRole('status').filter({ hasText: 'A new version is available' });
  await page.goto(`${origin}/`);
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect(page.locator('meta[name="heartsync-build"]')).toHaveAttribute('content', BUILD_B);

  replaceFolderContents(served, buildA);
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
  await expect(prompt).toBeVisible({ timeout: 30_000 });
  await prompt.getByRole('button', { name: 'Later' }).click();
  await expect(prompt).toHaveCount(0);
  expect(
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state),
  ).toBe('installed');
  await expect(page.locator('meta[name="heartsync-build"]')).toHaveAttribute('content', BUILD_B);
});
