// Airplane mode for the installed app (issue #4): the member's whole browser context (pages, the service
// worker and the sync engine's shared worker) reaches the server only through a test proxy, and the journey
// switches that proxy off. Unlike `context.setOffline` and `context.route` alone, nothing in the context gets
// through while it is off; the server is checked to have received nothing.
import crypto from 'node:crypto';
import { test, type APIRequestContext, type BrowserContext, type Page } from './support/test.ts';
import { POWERSYNC_RETRY_DELAY_MS } from '../../src/data/connector.ts';
import { PENDING_IDS_SQL } from '../../src/data/pending.ts';
import { acceptNecessaryCookies, expect, PASSWORD } from './support/accounts.ts';
import { startNetworkSwitch, type NetworkSwitch, type SeenRequest } from './support/network-switch.ts';
import { makeReadyForOffline } from './support/offline.ts';
import { queryReplica } from './support/replica.ts';
import {
  getServiceAuth,
  makeMatchedPair,
  messageInput,
  openConversation,
  serviceGet,
  thread,
  type ServiceAuth,
} from './support/two-members.ts';

const SYNC_STREAM = '/sync/stream';

/** A member acting through the REST API with their own access token (row-level security applies). */
async function signInByApi(request: APIRequestContext, anonKey: string, email: string): Promise<string> {
  const res = await request.post('/auth/v1/token?grant_type=password', {
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    data: { email, password: PASSWORD },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function sendAsMember(
  request: APIRequestContext,
  anonKey: string,
  token: string,
  message: { conversation_id: string; sender_id: string; recipient_id: string; content: string },
): Promise<void> {
  const res = await request.post('/rest/v1/messages', {
    headers: { apikey: anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    data: { id: crypto.randomUUID(), type: 'text', ...message },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function serverMessages(request: APIRequestContext, auth: ServiceAuth, filter: string) {
  return serviceGet<{ id: string; content: string }[]>(
    request,
    auth,
    `/rest/v1/messages?select=id,content&${filter}`,
  );
}

/** "METHOD path: count", most frequent first. */
function countByPath(seen: readonly SeenRequest[]): string[] {
  const counts = new Map<string, number>();
  for (const r of seen) {
    const key = r.method === 'CONNECT' ? `CONNECT ${r.host}` : `${r.method} ${r.path}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([key, n]) => `${key}: ${n}`);
}

const syncStreams = (net: NetworkSwitch) => net.forwarded.filter((r) => r.path === SYNC_STREAM).length;

async function openMemberPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await acceptNecessaryCookies(page);
  await page.addLocatorHandler(page.getByRole('button', { name: 'Keep Swiping' }), async (button) => {
    await button.click();
  });
  return page;
}

test('in airplane mode the installed app reads and writes from the device; back online the write uploads once', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const net = await startNetworkSwitch();
  try {
    const auth = await getServiceAuth(request, baseURL!);
    // Pia's context goes through the switch. Playwright sends loopback through a context's proxy on Chromium
    // (it adds "<-loopback>" to the bypass list), and a context's proxy covers its workers too.
    const [pia, olaf] = await makeMatchedPair(
      browser,
      request,
      auth,
      ['Pia', 'Olaf'],
      [{ proxy: { server: net.server } }],
    );
    await olaf.page.context().close();
    const context = pia.page.context();
    await context.addInitScript(() => localStorage.setItem('heartsync.exposeReplica', '1'));
    // What Playwright itself sees of the context's requests (pages and service worker, not shared workers).
    const seenByPlaywright: string[] = [];
    context.on('request', (r) => seenByPlaywright.push(new URL(r.url()).pathname));

    const olafToken = await signInByApi(request, auth.anonKey, olaf.email);
    const [low, high] = [pia.id, olaf.id].sort();
    const conversations = await serviceGet<{ id: string }[]>(
      request,
      auth,
      `/rest/v1/conversations?select=id&participant1_id=eq.${low}&participant2_id=eq.${high}`,
    );
    expect(conversations).toHaveLength(1);
    const conversationId = conversations[0]!.id;
    const fromOlaf = (content: string) =>
      sendAsMember(request, auth.anonKey, olafToken, {
        conversation_id: conversationId,
        sender_id: olaf.id,
        recipient_id: pia.id,
        content,
      });
    await fromOlaf('Hi Pia, Olaf here');

    // 1. Online: the match and Olaf's message reach Pia's replica through the sync stream.
    let page = pia.page;
    await openConversation(page, 'Olaf');
    await expect(thread(page).getByText('Hi Pia, Olaf here')).toBeVisible({ timeout: 30_000 });
    // The sync stream runs in the engine's shared worker (@powersync/web's multi-tab sync), which neither
    // `context.setOffline` nor `context.route` reaches. The proxy saw the stream: the worker's traffic goes
    // through the switch.
    expect(syncStreams(net)).toBeGreaterThan(0);
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    await cdp.detach();
    const piaContext = targetInfos.find((t) => t.type === 'page' && t.url === page.url())?.browserContextId;
    expect(piaContext).toBeTruthy();
    const workers = targetInfos.filter(
      (t) => t.browserContextId === piaContext && t.type === 'shared_worker',
    );
    expect(workers.map((t) => new URL(t.url).origin)).toEqual([new URL(baseURL!).origin]);
    console.log(
      `[airplane] ${SYNC_STREAM} requests seen by the proxy: ${syncStreams(net)}, by Playwright's request events: ${
        seenByPlaywright.filter((p) => p === SYNC_STREAM).length
      }`,
    );

    // The service worker controls the page and has booted it once (config and lazy chunks through its caches).
    await makeReadyForOffline(page, () =>
      expect(page.getByRole('link', { name: /Messages/ }).first()).toBeVisible({ timeout: 30_000 }),
    );

    // 2. Airplane mode: navigator.onLine is false, and the app closes its sync connection by itself (issue 21:
    //    offline means no request until the network returns). From then on no connection leaves the context.
    await context.setOffline(true);
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (window as unknown as { heartsyncReplica?: { currentStatus: { connected: boolean } } })
              .heartsyncReplica?.currentStatus.connected,
        ),
      )
      .toBe(false);
    net.off();
    const startUrl = '/match-list?source=pwa';
    await page.goto(startUrl);
    await expect(page.getByRole('heading', { name: 'My Matches', level: 1 })).toBeVisible({
      timeout: 20_000,
    });
    await expect(page.getByRole('heading', { name: 'Olaf', level: 2 })).toBeVisible();
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    await openConversation(page, 'Olaf');
    await expect(thread(page).getByText('Hi Pia, Olaf here')).toBeVisible();
    await expect(page.getByText('Offline: messages are sent when you are back online.')).toBeVisible();

    // 3. A message written in the air shows at once, as pending.
    const text = `Written in airplane mode ${crypto.randomUUID().slice(0, 8)}`;
    await messageInput(page).fill(text);
    await messageInput(page).press('Enter');
    await expect(messageInput(page)).toHaveValue('');
    const mine = (p: Page) => thread(p).locator('[data-message-id]', { hasText: text });
    await expect(mine(page)).toHaveAttribute('data-status', 'pending');
    await expect(mine(page).locator('.message-status')).toHaveText('Sending...');
    const messageId = (await mine(page).getAttribute('data-message-id'))!;
    // (Olaf's message, read offline, has its receipt queued too.)
    expect(messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await queryReplica(page, PENDING_IDS_SQL, ['messages'])).toContainEqual({ id: messageId });

    // The app is closed and opened again, still in the air: nothing typed is lost, it is still pending.
    await page.close();
    page = await openMemberPage(context);
    await page.goto(startUrl);
    await expect(page.getByRole('heading', { name: 'Olaf', level: 2 })).toBeVisible({ timeout: 20_000 });
    await openConversation(page, 'Olaf');
    await expect(mine(page)).toHaveAttribute('data-status', 'pending');
    await expect(mine(page)).toHaveAttribute('data-message-id', messageId);
    expect(await queryReplica(page, PENDING_IDS_SQL, ['messages'])).toContainEqual({ id: messageId });

    // 4. Nothing in the context (page, service worker, sync worker) tried the network while offline, a fresh
    //    start included: the switch refused nothing. Nothing reached the server either.
    await page.waitForTimeout(POWERSYNC_RETRY_DELAY_MS + 1000); // a retrying sync engine would have tried by now
    // Not one try from the app (the sync stream, its config, photos, REST, functions), the page closed above
    // included (a closing page sees a moment of network as Playwright lifts its switch; the app waits for the
    // network to stay back). Only the browser's own check for a new service worker after a navigation (the
    // spec's soft update) tries and fails: the worker's script, and at times its imported scripts (CI saw
    // `/workbox-<hash>.js` twice once); the browser makes those requests, not the app.
    const workerScript = (path: string) => /^\/(sw|sw-network|workbox-[\w-]+)\.js$/.test(path);
    expect(countByPath(net.refused.filter((r) => !workerScript(r.path)))).toEqual([]);
    console.log(`[airplane] refused while off: ${countByPath(net.refused).join(', ')}`);
    expect(await serverMessages(request, auth, `id=eq.${messageId}`)).toEqual([]);
    // Olaf writes back meanwhile.
    await fromOlaf('Are you on a plane?');
    await expect(thread(page).getByText('Are you on a plane?')).toHaveCount(0);
    const streamsBefore = syncStreams(net);

    // 5. Back on the ground: the message uploads once and shows as sent; Olaf's reply arrives without reload.
    net.on();
    await context.setOffline(false);
    await expect(mine(page)).toHaveAttribute('data-status', 'sent', { timeout: 60_000 });
    await expect(mine(page).locator('.message-status')).toHaveText('Sent');
    await expect(thread(page).getByText('Are you on a plane?')).toBeVisible({ timeout: 60_000 });
    await expect
      .poll(async () => (await queryReplica<{ n: number }>(page, 'select count(*) as n from ps_crud'))[0]?.n)
      .toBe(0);
    expect(
      await serverMessages(
        request,
        auth,
        `conversation_id=eq.${conversationId}&content=eq.${encodeURIComponent(text)}`,
      ),
    ).toEqual([{ id: messageId, content: text }]);
    // The app opened the sync connection again when the network came back.
    expect(syncStreams(net)).toBeGreaterThan(streamsBefore);
    console.log(`[airplane] refused as not local (Chromium's own services): ${net.external.length}`);
    await context.close();
  } finally {
    await net.close();
  }
});
