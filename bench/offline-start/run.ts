// Offline start benchmark: a member with synced matches and messages opens the app with no network, and
// we time from the app shell's load (DOMContentLoaded: the entry script has run) to the member's match list on
// screen ('hs:first-screen': painted from the screen snapshot of the last start, or from the replica if it
// answers first, decision 0093), and to the list read from the local replica ('hs:first-synced-screen').
// Two ways: reloads in an open browser, and cold launches of a new browser process on the same profile.
// Goal: <= 300 ms to the first screen. BENCH_RUNS, BENCH_COLD_RUNS;
// BENCH_DIST_DIR reuses a build folder and BENCH_SKIP_BUILD=1 skips building it; BENCH_TRACE=<file> also writes
// Chromium traces of one more offline reload (<file>) and cold launch (<file> with .cold before its extension;
// open them in Perfetto: the page, its database worker, the service worker and the WASM compile on one timeline).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import { build } from 'vite';
import WebSocket from 'ws';
import { parseConfig } from '../../server/config.ts';
import { createServer } from '../../server/create-server.ts';
import type { Queryable } from '../../server/db/database.ts';
import { seedDemoCommunity } from '../../server/demo/seed-demo.ts';
import { acceptNecessaryCookies } from '../../tests/e2e/support/accounts.ts';
import { createTestDatabase } from '../../tests/support/test-databases.ts';
import { getFreePort } from '../../tests/support/test-server.ts';
import { chromiumArgs, chromiumPath } from '../support/chromium.ts';
import { codeCacheReads } from './code-cache.ts';

const root = path.resolve(import.meta.dirname, '../..');
const RELOADS = Number(process.env['BENCH_RUNS'] ?? 15);
const COLD_LAUNCHES = Number(process.env['BENCH_COLD_RUNS'] ?? 8);
const MESSAGES_PER_MATCH = 5;
const GOAL_MS = 300;

interface StartTiming {
  /** From navigation start, ms. */
  shell: number;
  replicaOpenStart: number;
  storeChecked: number;
  replicaOpen: number;
  sessionRestored: number;
  /** The match list on screen, from the snapshot or the replica. */
  firstScreen: number;
  /** Whether the replica answered before the snapshot was painted (no snapshot painted). */
  firstScreenFromReplica: boolean;
  /** The match list read from the replica. */
  screen: number;
}

/**
 * Waits until the page has set the performance mark `name`, without running any of Playwright's own code in the
 * page: `page.waitForFunction` first evaluates Playwright's injected script in the page (about 50 ms of a cold
 * launch's main thread in a trace, in the middle of the start being timed), which a member's browser never
 * runs. One tiny expression through the DevTools protocol instead, answered when the mark is set.
 */
async function waitForMark(page: Page, name: string, timeoutMs: number, session?: CDPSession): Promise<void> {
  // A traced start passes its own session: a second one attached beside it brought the page's network back
  // (the app's sync stream reached the server during traced starts only).
  const cdp = session ?? (await page.context().newCDPSession(page));
  try {
    // The page gives up by itself after timeoutMs, so the answer always comes.
    const expression = `new Promise((resolve, reject) => {
      if (performance.getEntriesByName(${JSON.stringify(name)}, 'mark').length > 0) return resolve(true);
      setTimeout(() => reject(new Error('the page set no ${name} mark within ${timeoutMs} ms')), ${timeoutMs});
      new PerformanceObserver((list, observer) => {
        if (list.getEntriesByName(${JSON.stringify(name)}, 'mark').length === 0) return;
        observer.disconnect();
        resolve(true);
      }).observe({ type: 'mark', buffered: true });
    })`;
    const r = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (r.exceptionDetails)
      throw new Error(
        `waiting for ${name}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`,
      );
  } finally {
    if (!session) await cdp.detach().catch(() => undefined);
  }
}

/**
 * Waits for the match list read from the replica and reads the marks of this page load; the first screen must
 * have shown every match too (its mark carries the rows it showed).
 */
async function readStartTiming(page: Page, expectedRows: number, session?: CDPSession): Promise<StartTiming> {
  await waitForMark(page, 'hs:first-synced-screen', 60_000, session);
  const rows = await page.locator('[data-testid="match-row"]').count();
  if (rows !== expectedRows)
    throw new Error(`the offline match list shows ${rows} rows, expected ${expectedRows}`);
  const first = await page.evaluate(
    () =>
      (performance.getEntriesByName('hs:first-screen', 'mark')[0] as PerformanceMark | undefined)?.detail as
        { rows?: unknown; fromReplica?: unknown } | undefined,
  );
  if (first?.rows !== expectedRows)
    throw new Error(`the first screen showed ${String(first?.rows)} rows, expected ${expectedRows}`);
  // No helper functions inside: tsx would wrap them in a __name() call the page does not have.
  const names = [
    'hs:replica-open-start',
    'hs:replica-store-checked',
    'hs:replica-open',
    'hs:session-restored',
    'hs:first-screen',
    'hs:first-synced-screen',
  ];
  const [shell, replicaOpenStart, storeChecked, replicaOpen, sessionRestored, firstScreen, screen] =
    await page.evaluate(
      (marks) => [
        (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)
          ?.domContentLoadedEventEnd ?? NaN,
        ...marks.map((name) => performance.getEntriesByName(name, 'mark')[0]?.startTime ?? NaN),
      ],
      names,
    );
  return {
    shell: shell ?? NaN,
    replicaOpenStart: replicaOpenStart ?? NaN,
    storeChecked: storeChecked ?? NaN,
    replicaOpen: replicaOpen ?? NaN,
    sessionRestored: sessionRestored ?? NaN,
    firstScreen: firstScreen ?? NaN,
    firstScreenFromReplica: first.fromReplica === true,
    screen: screen ?? NaN,
  };
}

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? NaN;
}

function summarize(label: string, timings: StartTiming[]): { median: number; p95: number } {
  const since = timings.map((t) => t.firstScreen - t.shell);
  const median = percentile(since, 0.5);
  const p95 = percentile(since, 0.95);
  const synced = timings.map((t) => t.screen - t.shell);
  const med = (f: (t: StartTiming) => number) => Math.round(percentile(timings.map(f), 0.5));
  const painted = timings.filter((t) => !t.firstScreenFromReplica).length;
  console.log(
    `${label} (${timings.length} runs): shell -> first screen median ${Math.round(median)} ms, p95 ${Math.round(p95)} ms` +
      ` (painted from the snapshot in ${painted} of ${timings.length});` +
      ` shell -> list from the replica median ${Math.round(percentile(synced, 0.5))} ms, p95 ${Math.round(percentile(synced, 0.95))} ms`,
  );
  console.log(
    `  medians from navigation start: shell loaded ${med((t) => t.shell)} ms, replica opening ${med((t) => t.replicaOpenStart)} ms,` +
      ` local file open ${med((t) => t.replicaOpen)} ms,` +
      ` session restored ${med((t) => t.sessionRestored)} ms,` +
      ` first screen ${med((t) => t.firstScreen)} ms,` +
      ` match list from the replica ${med((t) => t.screen)} ms`,
  );
  console.log(
    `  medians of the steps: shell -> replica opening (its chunk holds the sync engine) ${med((t) => t.replicaOpenStart - t.shell)} ms,` +
      ` opening the file ${med((t) => t.replicaOpen - t.replicaOpenStart)} ms` +
      ` (store checks ${med((t) => t.storeChecked - t.replicaOpenStart)}, db.init() ${med((t) => t.replicaOpen - t.storeChecked)}),` +
      ` first query and render ${med((t) => t.screen - t.replicaOpen)} ms,` +
      ` from the later of open file and restored session ${med((t) => t.screen - Math.max(t.replicaOpen, t.sessionRestored))} ms;` +
      ` restored session -> first screen ${med((t) => t.firstScreen - t.sessionRestored)} ms`,
  );
  return { median, p95 };
}

/**
 * A member with matches and conversations: the demo account likes back everyone who liked it (the SQL rules
 * make the matches) and opens each conversation; each match answers with a few messages, written in SQL as
 * the synthetic members cannot sign in.
 */
async function prepareMember(
  origin: string,
  anonKey: string,
  db: Queryable,
  credentials: { email: string; password: string },
): Promise<number> {
  const client = createClient(origin, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
  });
  const { data, error } = await client.auth.signInWithPassword(credentials);
  if (error || !data.user) throw new Error(`demo sign-in failed: ${error?.message ?? 'no user'}`);
  const me = data.user.id;
  const likes = await client.rpc('get_received_likes', { limit_count: 50, offset_count: 0 });
  if (likes.error) throw new Error(likes.error.message);
  for (const { liker_id } of likes.data as { liker_id: string }[]) {
    const back = await client
      .from('user_interactions')
      .insert({ user_id: me, target_id: liker_id, interaction_type: 'like' });
    if (back.error) throw new Error(back.error.message);
  }
  const conversations = await client.from('conversations').select('id, participant1_id, participant2_id');
  if (conversations.error) throw new Error(conversations.error.message);
  for (const c of conversations.data as { id: string; participant1_id: string; participant2_id: string }[]) {
    const other = c.participant1_id === me ? c.participant2_id : c.participant1_id;
    const sent = await client.from('messages').insert({
      id: crypto.randomUUID(),
      conversation_id: c.id,
      sender_id: me,
      recipient_id: other,
      content: 'Hello from the benchmark',
      type: 'text',
      status: 'sent',
    });
    if (sent.error) throw new Error(sent.error.message);
    for (let i = 1; i < MESSAGES_PER_MATCH; i++) {
      await db.query(
        `insert into public.messages (id, conversation_id, sender_id, recipient_id, content, type, status)
         values ($1, $2, $3, $4, $5, 'text', 'sent')`,
        [crypto.randomUUID(), c.id, other, me, `Benchmark reply ${i}`],
      );
    }
  }
  const matches = await client.from('matches').select('id');
  if (matches.error) throw new Error(matches.error.message);
  return matches.data.length;
}

/**
 * BENCH_TRACE=file: one more offline start under Chromium's tracing, written as a trace file (chrome://tracing,
 * Perfetto): a reload in the open browser (file), and a cold launch (file with .cold before its extension).
 * BENCH_TRACE_JS=1 adds V8's sampling profiler to both (build with sourcemaps to read its function names).
 */
async function traceStart(
  context: BrowserContext,
  page: Page,
  expectedRows: number,
  file: string,
  start: () => Promise<unknown>,
): Promise<void> {
  const cdp = await context.newCDPSession(page);
  // A session of its own starts with the network on for this page (the traced reload went online, requests
  // and all): offline again, as the context is.
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: true,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const events: unknown[] = [];
  cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => events.push(...e.value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    transferMode: 'ReportEvents',
    traceConfig: {
      includedCategories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'v8',
        'v8.execute',
        'blink.user_timing',
        'loading',
        'ServiceWorker',
        'toplevel',
        'v8.wasm',
        'disabled-by-default-v8.wasm.detailed',
        // BENCH_TRACE_JS=1: V8's sampling profiler too (which functions ran), at some cost to the start.
        ...(process.env['BENCH_TRACE_JS'] === '1' ? ['disabled-by-default-v8.cpu_profiler'] : []),
      ],
    },
  });
  await start();
  await readStartTiming(page, expectedRows, cdp);
  await cdp.send('Tracing.end');
  await complete;
  fs.writeFileSync(file, JSON.stringify({ traceEvents: events }));
  const cache = codeCacheReads(events);
  console.log(
    `trace of one offline start: ${file} (${events.length} events); the page's scripts compiled from V8's code` +
      ` cache: ${cache.modulesFromCache} of ${cache.modules} modules, ${cache.classicFromCache} of ${cache.classic}` +
      ` classic scripts`,
  );
}

/** The cold launch's trace file: trace.json -> trace.cold.json. */
function coldTraceFile(file: string): string {
  const ext = path.extname(file);
  return `${file.slice(0, file.length - ext.length)}.cold${ext || '.json'}`;
}

async function launch(profile: string, baseURL: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: [...chromiumArgs],
    baseURL,
    viewport: { width: 1280, height: 800 },
  });
}

/** A new browser process on the profile, offline from its first request, and its page. */
async function launchOffline(
  profile: string,
  baseURL: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await launch(profile, baseURL);
  await context.setOffline(true);
  return { context, page: context.pages()[0] ?? (await context.newPage()) };
}

async function main() {
  if (process.env['BENCH_SKIP_BUILD'] && !process.env['BENCH_DIST_DIR']) {
    // Without a folder to reuse, skipping the build would serve an empty one (every page a 404).
    throw new Error(
      'BENCH_SKIP_BUILD=1 needs BENCH_DIST_DIR=<a built folder>, e.g. BENCH_DIST_DIR=dist after npm run build',
    );
  }
  // A build folder of its own (BENCH_DIST_DIR to reuse one), so the bench never clashes with others building dist/.
  const distDir = process.env['BENCH_DIST_DIR']
    ? path.resolve(process.env['BENCH_DIST_DIR'])
    : fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-offline-dist-'));
  if (!process.env['BENCH_SKIP_BUILD'])
    await build({ root, logLevel: 'error', build: { outDir: distDir, emptyOutDir: true } });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-offline-'));
  const profile = path.join(tmp, 'profile');
  const db = await createTestDatabase('pglite');
  const port = await getFreePort();
  const origin = `http://127.0.0.1:${port}`;
  const config = parseConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    DATA_DIR: path.join(tmp, 'data'),
    DEMO: '0',
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_MAX: '1000',
  });
  const server = await createServer(config, { db, skipMigrations: true, logger: false, distDir });
  // Counts what reaches the server while the browser is meant to be offline.
  let requestsWhileOffline = 0;
  let offline = false;
  const offlineUrls = new Map<string, number>();
  // Which step of the bench each dropped request came in, so a stray one can be traced to its cause.
  let phase = 'online';
  // Chromium's offline switch covers pages but not workers (the service worker's own fetches, the sync
  // engine's worker), so while offline the server also drops every connection unanswered, like no network.
  server.app.addHook('onRequest', async (req, reply) => {
    if (!offline) return;
    requestsWhileOffline++;
    const key = `${req.method} ${req.url.split('?')[0] ?? ''} (${phase})`;
    offlineUrls.set(key, (offlineUrls.get(key) ?? 0) + 1);
    reply.hijack();
    req.raw.socket.destroy();
  });
  await server.app.listen({ port, host: '127.0.0.1' });
  let context: BrowserContext | undefined;
  try {
    const demo = await seedDemoCommunity(server.ctx.db, { dataDir: config.dataDir });
    if (!demo.email || !demo.password) throw new Error('the demo community was not seeded');
    const matchCount = await prepareMember(origin, server.ctx.keys.anonKey, server.ctx.db, {
      email: demo.email,
      password: demo.password,
    });
    if (matchCount === 0) throw new Error('the demo member has no matches');

    // Online once: sign in, let the replica sync and the service worker take control and cache the config; the
    // match list's last answer from the replica is the snapshot the offline starts paint first.
    context = await launch(profile, origin);
    await acceptNecessaryCookies(context);
    const page = context.pages()[0] ?? (await context.newPage());
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    await page.goto('/login');
    await page.getByLabel('Email').fill(demo.email);
    await page.getByLabel('Password', { exact: true }).fill(demo.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 60_000 });
    await page.evaluate(async () => navigator.serviceWorker.ready);
    await page.goto('/match-list');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    // Every match and its last message synced (the messages arrive after the matches).
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('[data-testid="match-row"]').length === n &&
        !document.body.innerText.includes('Say hello!'),
      matchCount,
      { timeout: 120_000 },
    );
    await page.waitForFunction(async () => (await caches.match('/app-config.json')) !== undefined, null, {
      timeout: 30_000,
    });

    // Offline reloads in the open browser.
    await context.setOffline(true);
    offline = true;
    phase = 'the first offline reload';
    await page.reload();
    await readStartTiming(page, matchCount); // the first offline start warms nothing the next ones need
    phase = 'the reloads';
    const reloads: StartTiming[] = [];
    for (let i = 0; i < RELOADS; i++) {
      await page.reload();
      reloads.push(await readStartTiming(page, matchCount));
    }
    const traceFile = process.env['BENCH_TRACE'];
    phase = 'the traced reload';
    if (traceFile) await traceStart(context, page, matchCount, traceFile, () => page.reload());
    phase = 'closing the browser';
    await context.close();
    context = undefined;

    // Cold launches: a new browser process on the same profile each time, offline from the first request.
    const colds: StartTiming[] = [];
    for (let i = 0; i < COLD_LAUNCHES; i++) {
      phase = 'the cold launches';
      const cold = await launchOffline(profile, origin);
      context = cold.context;
      await cold.page.goto('/match-list');
      colds.push(await readStartTiming(cold.page, matchCount));
      await context.close();
      context = undefined;
    }
    if (traceFile) {
      phase = 'the traced cold launch';
      const cold = await launchOffline(profile, origin);
      context = cold.context;
      await traceStart(context, cold.page, matchCount, coldTraceFile(traceFile), () =>
        cold.page.goto('/match-list'),
      );
      await context.close();
      context = undefined;
    }

    console.log(
      `member with ${matchCount} matches and ${matchCount * MESSAGES_PER_MATCH} messages, Chromium offline;` +
        ` load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`,
    );
    const warm = summarize('offline reload', reloads);
    const cold = summarize('offline cold launch', colds);
    // GET /sw.js is the browser's own update check of the service worker after a navigation (the spec's soft
    // update; Chromium sends it from the browser process, past its offline switch): a page of a few lines
    // that registers nothing after its first load got one about 1.5 s after each offline reload. The app asks
    // for one only online and once an hour (src/ui/update-prompt.tsx). A reload before it fires postpones it,
    // so its count varies from run to run (0 to 18 seen); a device without a network fails it locally.
    const isUpdateCheck = (k: string) => k.startsWith('GET /sw.js ');
    const browserChecks = [...offlineUrls].reduce((n, [k, c]) => n + (isUpdateCheck(k) ? c : 0), 0);
    const appRequests = [...offlineUrls].filter(([k]) => !isUpdateCheck(k));
    console.log(
      `requests the server dropped while offline (workers are not covered by Chromium's offline switch):` +
        ` ${requestsWhileOffline - browserChecks} from the app` +
        (appRequests.length ? ` (${appRequests.map(([k, n]) => `${k} x${n}`).join(', ')})` : '') +
        `, ${browserChecks} the browser's own service worker update check (GET /sw.js)`,
    );
    console.log(
      `offline start to first screen vs goal ${GOAL_MS} ms: reload median ${(warm.median / GOAL_MS).toFixed(2)}x` +
        ` (p95 ${(warm.p95 / GOAL_MS).toFixed(2)}x), cold launch median ${(cold.median / GOAL_MS).toFixed(2)}x` +
        ` (p95 ${(cold.p95 / GOAL_MS).toFixed(2)}x)`,
    );
  } finally {
    await context?.close().catch(() => undefined);
    await server.close();
    await db.destroy();
    fs.rmSync(tmp, { recursive: true, force: true });
    if (!process.env['BENCH_DIST_DIR']) fs.rmSync(distDir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
