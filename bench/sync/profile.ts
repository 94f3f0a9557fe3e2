// Where a write's time goes on its way to another client's replica. Marks, in ms from the writer's insert:
// the writer's local insert, its upload, the server insert, the change notification, the replicator's
// transaction (and each statement in it), the stream's line, the reader's powersync_control calls for the
// data line and for checkpoint_complete, the reader's table update notification and the row seen by a read.
// Run: npx tsx bench/sync/profile.ts (N samples; WAIT=poll reads every 1 ms instead of waiting for the
// table update, as the bench once did).
import crypto from 'node:crypto';
import http from 'node:http';
import { Schema, Table, column, type AbstractPowerSyncDatabase } from '@powersync/node';
import type { Queryable } from '../../server/db/database.ts';
import { openSyncClient, startSyncServer, waitFor } from '../../tests/server/sync-support.ts';
import { BENCH_MEMBERS } from './members.ts';

const kind = process.env['TEST_DATABASE_URL'] ? 'postgres' : 'pglite';
const N = Number(process.env['N'] ?? 30);
const WAIT = process.env['WAIT'] ?? 'change';
const setupSql = `create table public.bench_notes (id uuid primary key, room text not null, author text not null, body text not null);`;
const rulesYaml = `
bucket_definitions:
  room:
    parameters: select 'lobby' as room
    data:
      - select id, room, author, body from bench_notes where room = bucket.room`;
const schema = new Schema({
  bench_notes: new Table({ room: column.text, author: column.text, body: column.text }),
});
const marks = new Map<string, Record<string, number>>();
let current = '';
const mark = (k: string) => {
  const m = marks.get(current);
  if (m && m[k] === undefined) m[k] = performance.now();
};
const origWrite = http.ServerResponse.prototype.write;
http.ServerResponse.prototype.write = function (
  this: http.ServerResponse,
  chunk: unknown,
  ...rest: unknown[]
) {
  if (typeof chunk === 'string') {
    if (current && chunk.includes(current)) mark('line');
    else if (chunk.includes('write_checkpoint')) mark('wcp_line');
  }
  return (origWrite as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
} as never;
const t = await startSyncServer(kind, { rulesYaml, setupSql });
await t.db.listen('heartsync_sync_changes', () => mark('notify'));
const spans: { sample: string; label: string; start: number; end: number }[] = [];
const timed = <T>(label: string, run: () => Promise<T>): Promise<T> => {
  const start = performance.now();
  const sample = current;
  return run().finally(() => spans.push({ sample, label, start, end: performance.now() }));
};
const label = (sql: unknown) => String(sql).replace(/\s+/g, ' ').trim().slice(0, 50);
const wrapQueryable = (q: Queryable, prefix: string): Queryable => ({
  query: (sql, params) => timed(prefix + label(sql), () => q.query(sql, params)),
  exec: (sql) => timed(prefix + label(sql), () => q.exec(sql)),
});
const db = t.ctx.db as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
const origQuery = db['query']!.bind(db);
const origTx = db['transaction']!.bind(db);
db['query'] = (sql: unknown, params: unknown) => timed(label(sql), () => origQuery(sql, params));
db['transaction'] = (fn: unknown, options?: unknown) =>
  timed('transaction', () =>
    origTx(
      (tx: Queryable) => (fn as (q: Queryable) => Promise<unknown>)(wrapQueryable(tx, '  tx: ')),
      options,
    ),
  );
t.sync.replicator.on('committed', () => mark('committed'));
const upload = async (db: AbstractPowerSyncDatabase) => {
  const batch = await db.getCrudBatch(100);
  if (!batch) return;
  mark('upload');
  for (const op of batch.crud) {
    const d = op.opData ?? {};
    await t.db.query('insert into bench_notes (id, room, author, body) values ($1, $2, $3, $4)', [
      op.id,
      d['room'],
      d['author'],
      d['body'],
    ]);
  }
  mark('inserted');
  await batch.complete();
  mark('completed');
};
// The reader's trace log names each powersync_control call as it returns.
const readerLogger = {
  log(record: { message?: unknown }) {
    const m = String(record.message ?? '');
    if (!m.startsWith('powersync_control(')) return;
    if (current && m.includes(current)) mark('r_data');
    else if (m.includes('checkpoint_complete') && marks.get(current)?.['r_data'] !== undefined)
      mark('r_complete');
  },
};
const writer = await openSyncClient(t, schema, () => t.signToken(BENCH_MEMBERS.writer), upload);
const reader = await openSyncClient(t, schema, () => t.signToken(BENCH_MEMBERS.reader), undefined, {
  logger: readerLogger,
});
await writer.db.waitForFirstSync();
await reader.db.waitForFirstSync();
let onUpdate: (() => void) | undefined;
reader.db.database.registerListener({
  tablesUpdated: (u) => {
    if (JSON.stringify(u).includes('bench_notes')) {
      mark('r_updated');
      onUpdate?.();
    }
  },
});
const rows: Record<string, number>[] = [];
for (let i = 0; i < N; i++) {
  const id = crypto.randomUUID();
  current = id;
  const m: Record<string, number> = {};
  marks.set(id, m);
  const started = performance.now();
  m['start'] = started;
  const seen =
    WAIT === 'poll'
      ? undefined
      : new Promise<void>((resolve) => {
          onUpdate = () => {
            void reader.db.getAll('select id from bench_notes where id = ?', [id]).then((r) => {
              if (r.length === 1) resolve();
            });
          };
        });
  await writer.db.execute('insert into bench_notes (id, room, author, body) values (?, ?, ?, ?)', [
    id,
    'lobby',
    'writer',
    'x'.repeat(200),
  ]);
  mark('local');
  if (seen) await seen;
  else
    await waitFor(
      () => reader.db.getAll('select id from bench_notes where id = ?', [id]),
      (r) => r.length === 1,
      10_000,
      1,
    );
  m['seen'] = performance.now();
  onUpdate = undefined;
  rows.push(Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v - started])));
  await new Promise((r) => setTimeout(r, 50));
}
const keys = [
  'local',
  'upload',
  'notify',
  'inserted',
  'completed',
  'committed',
  'line',
  'r_data',
  'r_complete',
  'r_updated',
  'seen',
  'wcp_line',
];
const sortedOf = (xs: number[]) => xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
console.log(`${kind}, ${N} samples, reader waits by ${WAIT}`);
for (const k of keys) {
  const s = sortedOf(rows.map((r) => r[k] ?? NaN));
  console.log(
    k.padEnd(10),
    'p50',
    (s[Math.floor(s.length / 2)] ?? NaN).toFixed(1).padStart(6),
    'p90',
    (s[Math.floor(s.length * 0.9)] ?? NaN).toFixed(1).padStart(6),
    'max',
    (s.at(-1) ?? NaN).toFixed(1).padStart(6),
  );
}
// The statements of a few samples, in ms from their writer's insert.
for (const sample of [...marks.keys()].slice(-3)) {
  const m0 = marks.get(sample)!['start']!;
  console.log('--');
  const events = [
    ...spans
      .filter((x) => x.sample === sample)
      .map((sp) => ({ at: sp.start, text: `${(sp.end - sp.start).toFixed(1).padStart(5)} ms ${sp.label}` })),
    ...Object.entries(marks.get(sample)!).map(([k, v]) => ({ at: v, text: `mark ${k}` })),
  ].sort((a, b) => a.at - b.at);
  for (const e of events) console.log((e.at - m0).toFixed(1).padStart(6), e.text);
}
await writer.close();
await reader.close();
await t.close();
process.exit(0);
