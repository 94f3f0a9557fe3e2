// The community that bench:scale and bench:soak run: server processes on one fresh PostgreSQL database
// behind a round-robin TCP proxy, matched members messaging each other through REST while every member's
// replica follows the sync stream (a few real @powersync/node replicas, the rest protocol-level readers of
// the stream's NDJSON lines), optionally signing in with a password, swiping, and one process killed and
// started again mid-run. It reports what was sent, acknowledged, delivered, lost and duplicated, the
// delivery latencies, every error response, and each process's memory over time.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Schema, Table, column } from '@powersync/node';
import pg from 'pg';
import { createKeys } from '../../server/auth/keys.ts';
import { openSyncClient, type SyncClient } from '../../tests/server/sync-support.ts';
import { getDatabaseUrl } from '../../tests/support/test-databases.ts';

const root = path.resolve(import.meta.dirname, '../..');

export interface ScenarioOptions {
  /** A PostgreSQL server where the scenario may create (and drop) its database. */
  baseUrl: string;
  processes: number;
  members: number;
  realClients: number;
  /** Messages each member sends a minute (the SQL limit is 30). */
  ratePerMin: number;
  seconds: number;
  /** Members are made with a password and sign in through /auth/v1 (else tokens are signed directly). */
  signIn?: boolean;
  /** Discovery calls and skips each member makes a minute. */
  swipesPerMin?: number;
  /** Kill (SIGKILL) the last process this many seconds in, and start it again. */
  restartAfterSeconds?: number;
  /** Sample each process's memory this often. */
  memoryEverySeconds?: number;
  log?: (line: string) => void;
}

export interface ScenarioResult {
  processes: number;
  sent: number;
  acked: number;
  /**
   * Sends that got no answer because the connection was cut (a process killed, or under a load far past what
   * the processes deliver, the client or the proxy giving up on it); retried.
   */
  cut: number;
  /** Error responses (>= 400) by status and path, other than a retried send found already stored. */
  errors: Map<string, number>;
  delivered: number;
  deliveredPerSecond: number;
  /** Acknowledged messages missing from the database at the end. */
  lostInDatabase: number;
  /** Acknowledged messages their recipient's replica never showed. */
  lostInReplicas: number;
  /** Messages stored more than once (same content in two rows). */
  duplicated: number;
  p50: number;
  p95: number;
  p99: number;
  /** Per process: resident memory in MiB at each sample. */
  memory: number[][];
}

const wallNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const schema = new Schema({
  messages: new Table({
    conversation_id: column.text,
    sender_id: column.text,
    recipient_id: column.text,
    content: column.text,
  }),
});

export function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * A TCP proxy handing each new connection to the next backend in turn (no stickiness); a backend that
 * refuses the connection is skipped, as a load balancer's health check would.
 */
async function startRoundRobinProxy(ports: number[]): Promise<{ port: number; close(): Promise<void> }> {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    client.pause();
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    const attempt = (tries: number) => {
      const port = ports[next++ % ports.length]!;
      const upstream = net.connect(port, '127.0.0.1');
      let connected = false;
      upstream.once('connect', () => {
        connected = true;
        sockets.add(upstream);
        upstream.on('close', () => {
          sockets.delete(upstream);
          client.destroy();
        });
        client.on('close', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      upstream.on('error', () => {
        if (!connected && tries < ports.length) return attempt(tries + 1);
        upstream.destroy();
        client.destroy();
      });
    };
    attempt(1);
  });
  const port = await getFreePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

async function startServerProcess(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return child;
    await sleep(200);
  }
  throw new Error('server did not become healthy');
}

function getRssMiB(pid: number | undefined): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

interface Pair {
  a: string;
  b: string;
  conversationId: string;
}

/** Matches made in SQL the way two likes make them, between members that already exist. */
async function matchPairs(db: pg.Client, ids: string[]): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (let i = 0; i + 1 < ids.length; i += 2) {
    const [a, b] = [ids[i]!, ids[i + 1]!];
    await db.query(
      `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like'), ($2, $1, 'like')`,
      [a, b],
    );
    const r = await db.query<{ id: string }>(
      `select c.id from public.matches m join public.conversations c on c.match_id = m.id
        where m.user_id_1 = least($1::uuid, $2::uuid) and m.user_id_2 = greatest($1::uuid, $2::uuid)`,
      [a, b],
    );
    if (!r.rows[0]) throw new Error('no conversation was made for a mutual like');
    pairs.push({ a, b, conversationId: r.rows[0].id });
  }
  return pairs;
}

interface Delivery {
  /** message id -> delivery latency (ms) at the recipient's first sight. */
  latencies: Map<string, number>;
  lastAt: number;
}

function record(delivery: Delivery, content: string, expected: Set<string>) {
  const m = /^bench:(\d+(?:\.\d+)?):([0-9a-f-]{36})$/.exec(content);
  if (!m || !expected.has(m[2]!) || delivery.latencies.has(m[2]!)) return;
  delivery.lastAt = wallNow();
  delivery.latencies.set(m[2]!, delivery.lastAt - Number(m[1]));
}

/**
 * Follows one member's sync stream as the protocol describes it: positions per bucket advance at each
 * checkpoint_complete, and a cut stream reconnects from them (so nothing is downloaded twice).
 */
function startProtocolReader(
  url: string,
  token: string,
  memberId: string,
  delivery: Delivery,
  expected: Set<string>,
): { stop(): void; ready: Promise<void> } {
  const abort = new AbortController();
  let markReady: () => void = () => {};
  const ready = new Promise<void>((r) => (markReady = r));
  const positions = new Map<string, string>();
  const clientId = crypto.randomUUID();
  const once = async () => {
    const res = await fetch(`${url}/sync/stream`, {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        buckets: [...positions].map(([name, after]) => ({ name, after })),
        include_checksum: true,
        raw_data: true,
        client_id: clientId,
      }),
      signal: abort.signal,
    });
    if (!res.ok || !res.body) throw new Error(`sync stream answered ${res.status}`);
    const decoder = new TextDecoder();
    const pending = new Map<string, string>();
    let buffered = '';
    const body = res.body.getReader();
    for (;;) {
      const { done, value } = await body.read();
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (!line) continue;
        const msg = JSON.parse(line) as {
          checkpoint_complete?: unknown;
          data?: {
            bucket: string;
            next_after: string;
            data: { op: string; object_type: string; data: string | null }[];
          };
        };
        if (msg.checkpoint_complete) {
          for (const [b, after] of pending) positions.set(b, after);
          pending.clear();
          markReady();
        }
        if (!msg.data) continue;
        pending.set(msg.data.bucket, msg.data.next_after);
        for (const op of msg.data.data) {
          if (op.op !== 'PUT' || op.object_type !== 'messages' || !op.data) continue;
          const row = JSON.parse(op.data) as { recipient_id?: string; content?: string };
          if (row.recipient_id === memberId && row.content) record(delivery, row.content, expected);
        }
      }
    }
  };
  void (async () => {
    while (!abort.signal.aborted) {
      await once().catch(() => {});
      if (!abort.signal.aborted) await sleep(200);
    }
  })();
  return { stop: () => abort.abort(), ready };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runScenario(o: ScenarioOptions): Promise<ScenarioResult> {
  const log = o.log ?? (() => {});
  const dbName = `bench_scale_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: o.baseUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const dbUrl = getDatabaseUrl(o.baseUrl, dbName);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-scale-'));
  const ports = await Promise.all(Array.from({ length: o.processes }, () => getFreePort()));
  const proxy = await startRoundRobinProxy(ports);
  const publicUrl = `http://127.0.0.1:${proxy.port}`;
  const env = {
    DATABASE_URL: dbUrl,
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    HOST: '127.0.0.1',
    DEMO: '0',
    NODE_ENV: 'test',
    OUTBOX: '0',
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_MAX: '100000',
  };
  const servers: ChildProcess[] = [];
  const readers: { stop(): void }[] = [];
  const real: SyncClient[] = [];
  const timers: NodeJS.Timeout[] = [];
  const db = new pg.Client({ connectionString: dbUrl });
  const errors = new Map<string, number>();
  const countError = (what: string) => errors.set(what, (errors.get(what) ?? 0) + 1);
  try {
    // The first process migrates; the others start on the migrated database.
    for (const port of ports) servers.push(await startServerProcess(env, port));
    await db.connect();
    const apiKeys = JSON.parse(fs.readFileSync(path.join(dataDir, 'api-keys.json'), 'utf8')) as {
      anonKey: string;
      serviceRoleKey: string;
    };
    const anon = apiKeys.anonKey;
    const memberCount = o.members - (o.members % 2);
    const tokens = new Map<string, string>();
    const ids: string[] = [];
    if (o.signIn) {
      const password = 'a long bench passphrase 2026';
      for (let i = 0; i < memberCount; i++) {
        const email = `bench-${i}-${crypto.randomBytes(3).toString('hex')}@bench.test`;
        const created = await fetch(`${publicUrl}/auth/v1/admin/users`, {
          method: 'POST',
          headers: {
            apikey: apiKeys.serviceRoleKey,
            authorization: `Bearer ${apiKeys.serviceRoleKey}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ email, password, email_confirm: true }),
        });
        if (!created.ok) throw new Error(`admin create user answered ${created.status}`);
        const signIn = await fetch(`${publicUrl}/auth/v1/token?grant_type=password`, {
          method: 'POST',
          headers: { apikey: anon, 'content-type': 'application/json' },
          body: JSON.stringify({ email, password }),
        });
        if (!signIn.ok) countError(`${signIn.status} sign-in`);
        const session = (await signIn.json()) as { access_token: string; user: { id: string } };
        ids.push(session.user.id);
        tokens.set(session.user.id, session.access_token);
      }
      log(`${memberCount} members signed in`);
    } else {
      const jwk = JSON.parse(fs.readFileSync(path.join(dataDir, 'jwt-key.json'), 'utf8')) as object;
      const keys = await createKeys(jwk, `${publicUrl}/auth/v1`);
      for (let i = 0; i < memberCount; i++) {
        const id = crypto.randomUUID();
        await db.query('insert into auth.users (id, email, email_confirmed_at) values ($1, $2, now())', [
          id,
          `${id}@bench.test`,
        ]);
        ids.push(id);
        tokens.set(
          id,
          await keys.sign(
            { role: 'authenticated', sub: id, aud: 'authenticated', email: `${id}@bench.test` },
            3600,
          ),
        );
      }
    }
    const pairs = await matchPairs(db, ids);
    const partner = new Map(pairs.flatMap((p) => [[p.a, p.b] as const, [p.b, p.a] as const]));

    const delivery: Delivery = { latencies: new Map(), lastAt: 0 };
    const expected = new Set<string>();
    const readies: Promise<void>[] = [];
    for (const [i, id] of ids.entries()) {
      const token = tokens.get(id)!;
      if (i < o.realClients) {
        const client = await openSyncClient({ url: publicUrl }, schema, async () => token);
        real.push(client);
        client.db.onChangeWithCallback(
          {
            onChange: async () => {
              const rows = await client.db.getAll<{ content: string }>(
                "select content from messages where recipient_id = ? and content like 'bench:%'",
                [id],
              );
              for (const r of rows) record(delivery, r.content, expected);
            },
          },
          { tables: ['messages'], throttleMs: 0 },
        );
        readies.push(client.db.waitForFirstSync());
      } else {
        const reader = startProtocolReader(publicUrl, token, id, delivery, expected);
        readers.push(reader);
        readies.push(reader.ready);
      }
    }
    await Promise.all(readies);
    log(`${ids.length} replicas synced`);

    const memory: number[][] = servers.map(() => []);
    const sampleMemory = () => servers.forEach((s, i) => memory[i]!.push(getRssMiB(s.pid)));
    sampleMemory();
    if (o.memoryEverySeconds) timers.push(setInterval(sampleMemory, o.memoryEverySeconds * 1000));

    const started = wallNow();
    const until = started + o.seconds * 1000;
    if (o.restartAfterSeconds !== undefined) {
      const index = servers.length - 1;
      timers.push(
        setTimeout(() => {
          log(`killing process ${index + 1} (SIGKILL) and starting it again`);
          servers[index]!.kill('SIGKILL');
          void startServerProcess(env, ports[index]!).then(
            (child) => {
              servers[index] = child;
              log(`process ${index + 1} is back`);
            },
            (e: Error) => countError(`restart failed: ${e.message}`),
          );
        }, o.restartAfterSeconds * 1000),
      );
    }

    let sent = 0;
    let acked = 0;
    let cut = 0;
    const ackedIds: string[] = [];
    /** One send, retried with the same id while the connection is cut; a stored retry is acknowledged. */
    const send = async (from: string, to: string, conversationId: string) => {
      const id = crypto.randomUUID();
      const content = `bench:${wallNow()}:${id}`;
      expected.add(id);
      sent++;
      for (let attempt = 0; attempt < 20; attempt++) {
        const res = await fetch(`${publicUrl}/rest/v1/messages`, {
          method: 'POST',
          headers: {
            apikey: anon,
            authorization: `Bearer ${tokens.get(from)!}`,
            'content-type': 'application/json',
            prefer: 'return=minimal',
          },
          body: JSON.stringify({
            id,
            conversation_id: conversationId,
            sender_id: from,
            recipient_id: to,
            content,
          }),
        }).catch(() => undefined);
        await res?.arrayBuffer().catch(() => {});
        if (!res) {
          cut++;
          await sleep(250);
          continue;
        }
        // A retry of a write the cut connection had already stored: the key is taken, the write is there.
        if (res.status === 201 || (attempt > 0 && res.status === 409)) {
          acked++;
          ackedIds.push(id);
          return;
        }
        countError(`${res.status} POST /rest/v1/messages`);
        expected.delete(id);
        return;
      }
      expected.delete(id);
      countError('no answer after 20 tries');
    };
    const swipe = async (me: string) => {
      const headers = {
        apikey: anon,
        authorization: `Bearer ${tokens.get(me)!}`,
        'content-type': 'application/json',
      };
      const deck = await fetch(`${publicUrl}/rest/v1/rpc/get_discovery_candidates`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ limit_count: 20 }),
      }).catch(() => undefined);
      if (!deck) return void cut++;
      await deck.arrayBuffer();
      if (!deck.ok) countError(`${deck.status} rpc/get_discovery_candidates`);
      const target = ids[Math.floor(Math.random() * ids.length)]!;
      if (target === me || target === partner.get(me)) return;
      const skip = await fetch(`${publicUrl}/rest/v1/user_interactions`, {
        method: 'POST',
        headers: { ...headers, prefer: 'return=minimal' },
        body: JSON.stringify({ user_id: me, target_id: target, interaction_type: 'skip' }),
      }).catch(() => undefined);
      if (!skip) return void cut++;
      await skip.arrayBuffer();
      // A second skip of the same member is a duplicate key: already done, not an error.
      if (!skip.ok && skip.status !== 409) countError(`${skip.status} POST /rest/v1/user_interactions`);
    };
    const every = async (intervalMs: number, fn: () => Promise<void>) => {
      await sleep(Math.random() * intervalMs);
      for (let next = wallNow(); next < until; next += intervalMs) {
        await fn();
        const wait = next + intervalMs - wallNow();
        if (wait > 0) await sleep(wait);
      }
    };
    const loops: Promise<void>[] = [];
    for (const p of pairs) {
      loops.push(every(60_000 / o.ratePerMin, () => send(p.a, p.b, p.conversationId)));
      loops.push(every(60_000 / o.ratePerMin, () => send(p.b, p.a, p.conversationId)));
    }
    if (o.swipesPerMin) for (const id of ids) loops.push(every(60_000 / o.swipesPerMin, () => swipe(id)));
    await Promise.all(loops);
    for (const t of timers) clearInterval(t);
    sampleMemory();
    for (const deadline = wallNow() + 15_000; wallNow() < deadline;) {
      if (delivery.latencies.size >= expected.size) break;
      await sleep(100);
    }
    const elapsed = Math.max(o.seconds, (delivery.lastAt - started) / 1000);
    const stored = await db.query<{ content: string; n: number }>(
      `select content, count(*)::int n from public.messages where content like 'bench:%' group by content`,
    );
    const storedIds = new Set(stored.rows.map((r) => r.content.slice(-36)));
    const sorted = [...delivery.latencies.values()].sort((x, y) => x - y);
    return {
      processes: o.processes,
      sent,
      acked,
      cut,
      errors,
      delivered: delivery.latencies.size,
      deliveredPerSecond: delivery.latencies.size / elapsed,
      lostInDatabase: ackedIds.filter((id) => !storedIds.has(id)).length,
      lostInReplicas: ackedIds.filter((id) => !delivery.latencies.has(id)).length,
      duplicated: stored.rows.filter((r) => r.n > 1).length,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      memory,
    };
  } finally {
    for (const t of timers) clearInterval(t);
    for (const r of readers) r.stop();
    await Promise.all(real.map((c) => c.close()));
    await db.end().catch(() => {});
    for (const s of servers) s.kill('SIGTERM');
    await Promise.all(
      servers.map((s) => (s.exitCode !== null ? undefined : new Promise((r) => s.once('exit', r)))),
    );
    await proxy.close();
    await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatResult(r: ScenarioResult): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const errors = [...r.errors].map(([k, n]) => `${k} x${n}`).join(', ') || 'none';
  return (
    `${r.processes} process${r.processes > 1 ? 'es' : ''}: ${r.sent} sent, ${r.acked} acknowledged` +
    `${r.cut ? ` (${r.cut} sends got no answer, retried)` : ''}, ${r.deliveredPerSecond.toFixed(1)} delivered/s; ` +
    `lost ${r.lostInDatabase} in the database and ${r.lostInReplicas} in replicas, duplicated ${r.duplicated}; ` +
    `delivery p50/p95/p99 ${ms(r.p50)} / ${ms(r.p95)} / ${ms(r.p99)}; errors: ${errors}; memory ` +
    r.memory.map((m) => `${m[0]}->${m.at(-1)} MiB`).join(', ')
  );
}
