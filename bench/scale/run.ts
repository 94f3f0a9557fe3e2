// bench:scale — one server process against two behind a round-robin TCP proxy, on one PostgreSQL
// (BENCH_DATABASE_URL): matched members message each other through REST while every member's replica
// follows the sync stream; prints messages delivered per second, delivery p50/p95/p99, lost and
// duplicated messages and each server process's memory, then the ratio of the two runs on its last line.
//
// Members: SCALE_MEMBERS (default 200, in matched pairs). SCALE_REAL_CLIENTS of the readers (default 10)
// are real @powersync/node replicas; the rest read the sync protocol's NDJSON lines directly (a
// protocol-level client, as light as a reader can be). Every member sends SCALE_RATE messages a minute
// (default 28, under the SQL limit of 30) for SCALE_SECONDS (default 30). The processes, the clients and
// PostgreSQL share this machine: on 2 cores the second process competes with the clients for CPU, so
// read the ratio as what the code allows on this machine, not as a cluster's scaling.
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

const root = path.resolve(import.meta.dirname, '../..');
const baseUrl = process.env['BENCH_DATABASE_URL'];
const MEMBERS = Number(process.env['SCALE_MEMBERS'] ?? 200);
const REAL_CLIENTS = Number(process.env['SCALE_REAL_CLIENTS'] ?? 10);
const RATE_PER_MIN = Number(process.env['SCALE_RATE'] ?? 28);
const SECONDS = Number(process.env['SCALE_SECONDS'] ?? 30);
/** After the writers stop, how long deliveries may still arrive. */
const DRAIN_MS = 10_000;

const schema = new Schema({
  messages: new Table({
    conversation_id: column.text,
    sender_id: column.text,
    recipient_id: column.text,
    content: column.text,
  }),
});

const wallNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** A TCP proxy handing each new connection to the next backend in turn (no stickiness). */
async function startRoundRobinProxy(ports: number[]): Promise<{ port: number; close(): Promise<void> }> {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const port = ports[next++ % ports.length]!;
    const upstream = net.connect(port, '127.0.0.1');
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

interface ServerProcess {
  child: ChildProcess;
  port: number;
}

async function startServerProcess(env: Record<string, string>, port: number): Promise<ServerProcess> {
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
    if (ok) return { child, port };
    await sleep(200);
  }
  throw new Error('server did not become healthy');
}

function getRssMiB(pid: number | undefined): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

interface Pair {
  a: string;
  b: string;
  conversationId: string;
}

/** Members and their matches, made in SQL the way sign-up and two likes make them. */
async function seedPairs(db: pg.Client, count: number): Promise<Pair[]> {
  const pairs: Pair[] = [];
  for (let i = 0; i < count; i++) {
    const a = crypto.randomUUID();
    const b = crypto.randomUUID();
    for (const id of [a, b]) {
      await db.query('insert into auth.users (id, email, email_confirmed_at) values ($1, $2, now())', [
        id,
        `${id}@bench.test`,
      ]);
    }
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
  duplicates: number;
  /** When the last new message arrived (wall clock). */
  lastAt: number;
}

function record(delivery: Delivery, content: string, expected: Set<string>) {
  const m = /^bench:(\d+(?:\.\d+)?):([0-9a-f-]{36})$/.exec(content);
  if (!m || !expected.has(m[2]!)) return;
  if (delivery.latencies.has(m[2]!)) {
    delivery.duplicates++;
    return;
  }
  delivery.lastAt = wallNow();
  delivery.latencies.set(m[2]!, delivery.lastAt - Number(m[1]));
}

/** Reads the sync stream's NDJSON lines and records each message PUT addressed to this member. */
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
  const run = async () => {
    const res = await fetch(`${url}/sync/stream`, {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ include_checksum: true, raw_data: true, client_id: crypto.randomUUID() }),
      signal: abort.signal,
    });
    if (!res.ok || !res.body) throw new Error(`sync stream answered ${res.status}`);
    const decoder = new TextDecoder();
    let buffered = '';
    const body = res.body.getReader();
    for (;;) {
      const { done, value } = await body.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (!line) continue;
        const msg = JSON.parse(line) as {
          checkpoint_complete?: unknown;
          data?: { data: { op: string; object_type: string; data: string | null }[] };
        };
        if (msg.checkpoint_complete) markReady();
        for (const op of msg.data?.data ?? []) {
          if (op.op !== 'PUT' || op.object_type !== 'messages' || !op.data) continue;
          const row = JSON.parse(op.data) as { recipient_id?: string; content?: string };
          if (row.recipient_id === memberId && row.content) record(delivery, row.content, expected);
        }
      }
    }
  };
  run().catch((e: Error) => {
    if (e.name !== 'AbortError') console.error(`a protocol reader failed: ${e.message}`);
  });
  return { stop: () => abort.abort(), ready };
}

interface RunResult {
  processes: number;
  acked: number;
  failed: number;
  deliveredPerSecond: number;
  lost: number;
  duplicates: number;
  p50: number;
  p95: number;
  p99: number;
  rssMiB: number[];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function runOnce(processes: number): Promise<RunResult> {
  const dbName = `bench_scale_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const dbUrl = new URL(baseUrl!);
  dbUrl.pathname = `/${dbName}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-scale-'));
  const ports = await Promise.all(Array.from({ length: processes }, () => getFreePort()));
  const proxy = await startRoundRobinProxy(ports);
  const publicUrl = `http://127.0.0.1:${proxy.port}`;
  const env = {
    DATABASE_URL: dbUrl.toString(),
    DATA_DIR: dataDir,
    PUBLIC_URL: publicUrl,
    HOST: '127.0.0.1',
    DEMO: '0',
    NODE_ENV: 'test',
    OUTBOX: '0',
    AUTH_RATE_LIMIT_MAX: '100000',
    LOG_LEVEL: 'warn',
  };
  const servers: ServerProcess[] = [];
  const readers: { stop(): void }[] = [];
  const real: SyncClient[] = [];
  const db = new pg.Client({ connectionString: dbUrl.toString() });
  try {
    // The first process migrates; the others start on the migrated database.
    for (const port of ports) servers.push(await startServerProcess(env, port));
    await db.connect();
    const pairs = await seedPairs(db, Math.floor(MEMBERS / 2));
    const jwk = JSON.parse(fs.readFileSync(path.join(dataDir, 'jwt-key.json'), 'utf8')) as object;
    const keys = await createKeys(jwk, `${publicUrl}/auth/v1`);
    const tokens = new Map<string, string>();
    for (const p of pairs)
      for (const id of [p.a, p.b])
        tokens.set(
          id,
          await keys.sign(
            { role: 'authenticated', sub: id, aud: 'authenticated', email: `${id}@bench.test` },
            3600,
          ),
        );

    const delivery: Delivery = { latencies: new Map(), duplicates: 0, lastAt: 0 };
    const expected = new Set<string>();
    // Readers: every member follows their replica's stream (some through the real SDK).
    const members = pairs.flatMap((p) => [p.a, p.b]);
    const readies: Promise<void>[] = [];
    for (const [i, id] of members.entries()) {
      const token = tokens.get(id)!;
      if (i < REAL_CLIENTS) {
        const client = await openSyncClient({ url: publicUrl }, schema, async () => token);
        real.push(client);
        const seen = new Set<string>();
        client.db.onChangeWithCallback(
          {
            onChange: async () => {
              const rows = await client.db.getAll<{ id: string; content: string }>(
                "select id, content from messages where recipient_id = ? and content like 'bench:%'",
                [id],
              );
              for (const r of rows)
                if (!seen.has(r.id)) {
                  seen.add(r.id);
                  record(delivery, r.content, expected);
                }
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

    // Writers: each member sends to their match at RATE_PER_MIN, with a random phase.
    let acked = 0;
    let failed = 0;
    // The instance's own anon key, as a deployed client holds it.
    const anon = (
      JSON.parse(fs.readFileSync(path.join(dataDir, 'api-keys.json'), 'utf8')) as { anonKey: string }
    ).anonKey;
    const until = wallNow() + SECONDS * 1000;
    const intervalMs = 60_000 / RATE_PER_MIN;
    const writer = async (from: string, to: string, conversationId: string) => {
      await sleep(Math.random() * intervalMs);
      for (let next = wallNow(); next < until; next += intervalMs) {
        const id = crypto.randomUUID();
        expected.add(id);
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
            content: `bench:${wallNow()}:${id}`,
          }),
        }).catch(() => undefined);
        if (res?.status === 201) acked++;
        else {
          if (failed === 0) console.error(`a write was refused: ${res?.status} ${await res?.text()}`);
          failed++;
          expected.delete(id);
        }
        await res?.arrayBuffer().catch(() => {});
        const wait = next + intervalMs - wallNow();
        if (wait > 0) await sleep(wait);
      }
    };
    const started = wallNow();
    await Promise.all(
      pairs.flatMap((p) => [writer(p.a, p.b, p.conversationId), writer(p.b, p.a, p.conversationId)]),
    );
    const rssMiB = servers.map((s) => getRssMiB(s.child.pid));
    for (const deadline = wallNow() + DRAIN_MS; wallNow() < deadline;) {
      if (delivery.latencies.size >= expected.size) break;
      await sleep(100);
    }
    // Delivered per second over the time from the first send to the last delivery.
    const elapsed = Math.max(SECONDS, (delivery.lastAt - started) / 1000);
    const sorted = [...delivery.latencies.values()].sort((x, y) => x - y);
    return {
      processes,
      acked,
      failed,
      deliveredPerSecond: delivery.latencies.size / elapsed,
      lost: [...expected].filter((id) => !delivery.latencies.has(id)).length,
      duplicates: delivery.duplicates,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      rssMiB,
    };
  } finally {
    for (const r of readers) r.stop();
    await Promise.all(real.map((c) => c.close()));
    await db.end().catch(() => {});
    for (const s of servers) s.child.kill('SIGTERM');
    await Promise.all(
      servers.map((s) =>
        s.child.exitCode !== null ? undefined : new Promise((r) => s.child.once('exit', r)),
      ),
    );
    await proxy.close();
    await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(r: RunResult) {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  console.log(
    `${r.processes} process${r.processes > 1 ? 'es' : ''}: ${r.acked} sent (${r.failed} refused), ` +
      `${r.deliveredPerSecond.toFixed(1)} delivered/s, lost ${r.lost}, duplicated ${r.duplicates}; ` +
      `delivery p50/p95/p99 ${ms(r.p50)} / ${ms(r.p95)} / ${ms(r.p99)}; memory ${r.rssMiB.map((m) => `${m} MiB`).join(', ')}`,
  );
}

async function main() {
  if (!baseUrl) {
    console.error('bench:scale needs BENCH_DATABASE_URL (a PostgreSQL server where it may create databases)');
    process.exit(1);
  }
  console.log(
    `bench:scale: ${MEMBERS} members (${REAL_CLIENTS} real @powersync/node replicas), ` +
      `${RATE_PER_MIN} messages a minute each for ${SECONDS} s, load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const one = await runOnce(1);
  print(one);
  const two = await runOnce(2);
  print(two);
  console.log(
    `ratio (2 processes / 1): delivered/s ${(two.deliveredPerSecond / one.deliveredPerSecond).toFixed(2)}x, ` +
      `p99 ${(two.p99 / one.p99).toFixed(2)}x (goal: >= 1.7x delivered at equal p99 when the offered load saturates one process)`,
  );
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
