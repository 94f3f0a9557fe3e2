// Sync benchmark: a write on one @powersync/node client until it appears in another client's local
// database, against a raw WebSocket relay of the same payload; an initial sync of 10k rows against
// inserting them into SQLite directly; and (issue #7) the messages thread screen's query on a replica
// holding a 10k-message conversation, through the SDK and on the replica file directly (thread.ts).
// Prints percentiles and ratios; the ratios are on the last line. BENCH_SAMPLES, BENCH_ROWS and
// BENCH_THREAD (messages) scale it down for a quick look.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Schema, Table, column, type AbstractPowerSyncDatabase } from '@powersync/node';
import { createRequire } from 'node:module';
import { WebSocket, WebSocketServer } from 'ws';
import { openSyncClient, startSyncServer, waitFor } from '../../tests/server/sync-support.ts';
import { describeThread, measureThread, median } from './thread.ts';

/** The slice of better-sqlite3 used here (the package ships no types; @powersync/node drives it too). */
interface DirectSqlite {
  pragma(source: string): unknown;
  exec(source: string): void;
  prepare(source: string): { run(...params: unknown[]): unknown };
  transaction(fn: () => void): () => void;
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => DirectSqlite;

const SAMPLES = Number(process.env['BENCH_SAMPLES'] ?? 60);
const INITIAL_ROWS = Number(process.env['BENCH_ROWS'] ?? 10_000);
const THREAD_MESSAGES = Number(process.env['BENCH_THREAD'] ?? 10_000);
const kind = process.env['TEST_DATABASE_URL'] ? 'postgres' : 'pglite';

const setupSql = `
  create table public.bench_notes (id uuid primary key, room text not null, author text not null, body text not null,
    created_at timestamptz not null default now());
  create table public.bench_rows (id uuid primary key, owner text not null, title text not null, n int not null);`;
const rulesYaml = `
bucket_definitions:
  room:
    parameters: select 'lobby' as room
    data:
      - select id, room, author, body from bench_notes where room = bucket.room
  rows:
    parameters: select request.user_id() as owner
    data:
      - select id, owner, title, n from bench_rows where owner = bucket.owner`;
const schema = new Schema({
  bench_notes: new Table({ room: column.text, author: column.text, body: column.text }),
  bench_rows: new Table({ owner: column.text, title: column.text, n: column.integer }),
});
const payload = 'x'.repeat(200);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}
function summarize(name: string, samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const r = { p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99) };
  console.log(`${name}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`);
  return r;
}

async function measureSync(): Promise<number[]> {
  const t = await startSyncServer(kind, { rulesYaml, setupSql });
  const upload = async (db: AbstractPowerSyncDatabase) => {
    const batch = await db.getCrudBatch(100);
    if (!batch) return;
    for (const op of batch.crud) {
      const d = op.opData ?? {};
      await t.db.query('insert into bench_notes (id, room, author, body) values ($1, $2, $3, $4)', [
        op.id,
        d['room'],
        d['author'],
        d['body'],
      ]);
    }
    await batch.complete();
  };
  const writer = await openSyncClient(t, schema, () => t.signToken('writer'), upload);
  const reader = await openSyncClient(t, schema, () => t.signToken('reader'));
  await writer.db.waitForFirstSync();
  await reader.db.waitForFirstSync();
  const samples: number[] = [];
  try {
    for (let i = 0; i < SAMPLES; i++) {
      const id = crypto.randomUUID();
      const started = performance.now();
      await writer.db.execute('insert into bench_notes (id, room, author, body) values (?, ?, ?, ?)', [
        id,
        'lobby',
        'writer',
        payload,
      ]);
      await waitFor(
        () => reader.db.getAll('select id from bench_notes where id = ?', [id]),
        (rows) => rows.length === 1,
        10_000,
        1,
      );
      samples.push(performance.now() - started);
    }
  } finally {
    await writer.close();
    await reader.close();
    await t.close();
  }
  return samples;
}

async function measureWebSocket(): Promise<number[]> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((r) => wss.once('listening', r));
  const port = (wss.address() as { port: number }).port;
  // A relay: what one socket sends, every other socket receives.
  wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      for (const other of wss.clients) if (other !== socket) other.send(data);
    });
  });
  const open = (url: string) =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
    });
  const a = await open(`ws://127.0.0.1:${port}`);
  const b = await open(`ws://127.0.0.1:${port}`);
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const id = crypto.randomUUID();
    const started = performance.now();
    const received = new Promise<void>((resolve) => {
      const onMessage = (data: Buffer) => {
        if ((JSON.parse(data.toString()) as { id: string }).id === id) {
          b.off('message', onMessage);
          resolve();
        }
      };
      b.on('message', onMessage);
    });
    a.send(JSON.stringify({ id, room: 'lobby', author: 'writer', body: payload }));
    await received;
    samples.push(performance.now() - started);
  }
  a.close();
  b.close();
  await new Promise((r) => wss.close(r));
  return samples;
}

async function measureInitialSync(): Promise<{ syncMs: number; openMs: number; sqliteMs: number }> {
  const t = await startSyncServer(kind, { rulesYaml, setupSql });
  await t.db.query(
    `insert into bench_rows (id, owner, title, n) select gen_random_uuid(), 'owner', 'row ' || g, g
       from generate_series(1, $1) g`,
    [INITIAL_ROWS],
  );
  await t.sync.replicator.flush();
  const started = performance.now();
  const client = await openSyncClient(t, schema, () => t.signToken('owner'));
  // Opening the SDK's database (worker, SQLite, its extension, the schema) and starting to connect.
  const openMs = performance.now() - started;
  await client.db.waitForFirstSync();
  const syncMs = performance.now() - started;
  const { n } = await client.db.get<{ n: number }>('select count(*) as n from bench_rows');
  await client.close();
  await t.close();
  if (n !== INITIAL_ROWS) throw new Error(`initial sync delivered ${n} rows, expected ${INITIAL_ROWS}`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-sqlite-'));
  const sqliteStarted = performance.now();
  const db = new Database(path.join(dir, 'direct.db'));
  db.pragma('journal_mode = WAL');
  db.exec('create table bench_rows (id text primary key, owner text, title text, n integer)');
  const insert = db.prepare('insert into bench_rows (id, owner, title, n) values (?, ?, ?, ?)');
  db.transaction(() => {
    for (let g = 1; g <= INITIAL_ROWS; g++) insert.run(crypto.randomUUID(), 'owner', `row ${g}`, g);
  })();
  const sqliteMs = performance.now() - sqliteStarted;
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return { syncMs, openMs, sqliteMs };
}

const ws = summarize('raw WebSocket relay', await measureWebSocket());
const sync = summarize(`PowerSync write-to-replica (${kind})`, await measureSync());
const initial = await measureInitialSync();
console.log(
  `initial sync of ${INITIAL_ROWS} rows: ${initial.syncMs.toFixed(0)} ms (opening the client ${initial.openMs.toFixed(0)} ms, download and apply ${(initial.syncMs - initial.openMs).toFixed(0)} ms); direct SQLite insert: ${initial.sqliteMs.toFixed(0)} ms`,
);
const thread = await measureThread(kind, THREAD_MESSAGES, 15);
for (const line of describeThread(thread)) console.log(line);
console.log(
  `goal: p99 <= 3x the WebSocket relay and p95 <= 250 ms: p95 ${sync.p95 <= 250 ? 'met' : 'NOT met'}`,
);
console.log(
  `ratio: latency p50 ${(sync.p50 / ws.p50).toFixed(1)}x, p95 ${(sync.p95 / ws.p95).toFixed(1)}x, p99 ${(sync.p99 / ws.p99).toFixed(1)}x; initial sync ${(initial.syncMs / initial.sqliteMs).toFixed(1)}x direct SQLite (${((initial.syncMs - initial.openMs) / initial.sqliteMs).toFixed(1)}x without opening the client); thread screen query (first page) median ${median(thread.page.sdk).toFixed(1)} ms vs raw SQLite ${median(thread.page.raw).toFixed(1)} ms = ${(median(thread.page.sdk) / median(thread.page.raw)).toFixed(1)}x (every message: ${(median(thread.all.sdk) / median(thread.all.raw)).toFixed(1)}x)`,
);
process.exit(0);
