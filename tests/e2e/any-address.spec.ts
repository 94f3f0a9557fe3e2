// The app works at whatever address it is opened at (decision 0053): sign-up, sign-in and a synced screen
// at `localhost` and at another loopback address reached through a TCP forwarder (as a phone reaches a
// laptop through a proxy), while the server's PUBLIC_URL (used in e-mails) names 127.0.0.1. No request may
// be refused by the page's CSP on the way. The machine's LAN address is not used: this workplace allows
// test traffic to loopback addresses only.
import net from 'node:net';
import { test, type Browser, type Page } from './support/test.ts';
import { acceptNecessaryCookies, expect, getMailedLink, makeEmail, PASSWORD } from './support/accounts.ts';
import { getMemberId, getServiceAuth, serviceWrite } from './support/service-role.ts';

/** A TCP forwarder listening on another loopback address, to the e2e server: the browser's origin differs. */
async function startForwarder(host: string, targetPort: number): Promise<{ origin: string; close(): void }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/** A member page on the given origin whose console refusals by the CSP are collected. */
async function openAt(browser: Browser, origin: string): Promise<{ page: Page; refusals: string[] }> {
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  await acceptNecessaryCookies(page);
  const refusals: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (connect|load)/i.test(m.text())) refusals.push(m.text());
  });
  return { page, refusals };
}

const port = Number(process.env['E2E_PORT'] ?? 3310);

for (const where of ['localhost', 'another loopback address behind a forwarder'] as const) {
  test(`at ${where}: sign-up, sign-in and a synced screen work with no CSP refusal`, async ({
    browser,
    request,
    baseURL,
  }) => {
    const forwarder = where === 'localhost' ? undefined : await startForwarder('127.0.0.2', port);
    const origin = forwarder?.origin ?? `http://localhost:${port}`;
    expect(new URL(origin).origin).not.toBe(new URL(baseURL!).origin);
    const { page, refusals } = await openAt(browser, origin);
    try {
      const email = makeEmail('anywhere');
      await page.goto('/signup');
      await page.getByLabel('First name').fill('Ana');
      await page.getByLabel('Last name').fill('Where');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(page).toHaveURL(/\/email-confirmation-pending$/);
      // The mailed link names PUBLIC_URL; confirming there is what a member does from their inbox.
      const link = await getMailedLink(request, email, 'signup');
      expect(new URL(link).origin).toBe(new URL(baseURL!).origin);
      const confirmed = await request.get(link, { maxRedirects: 0 });
      expect(confirmed.status()).toBeLessThan(400);

      await page.goto('/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page).not.toHaveURL(/\/login$/);
      // Signed in: the page offers the member area (the landing's Dashboard link, or the member layout).
      await expect(
        page.getByRole('link', { name: 'Dashboard' }).or(page.getByRole('button', { name: 'Sign Out' })),
      ).not.toHaveCount(0);

      // A row written on the server reaches this origin's replica and shows without a reload.
      const auth = await getServiceAuth(request, baseURL!);
      const id = await getMemberId(request, auth, email);
      await page.goto('/notifications');
      await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
      await serviceWrite(request, auth, 'post', '/rest/v1/notifications', {
        user_id: id,
        type: 'system',
        title: `Hello from ${where}`,
        body: 'Synced to this address.',
      });
      await expect(page.getByText(`Hello from ${where}`)).toBeVisible();
      expect(refusals).toEqual([]);
    } finally {
      await page.context().close();
      forwarder?.close();
    }
  });
}
