// Where a write's time goes on its way to another client's replica: marks for the writer's local insert,
// its upload, the server insert, the change notification, the replicator's commit, the stream's lines and
// the reader seeing the row, plus every database call of one sample. Run: npx tsx bench/sync/profile.ts
import crypto from 'node:crypto';
import http from 'node:http';
import { Schema, Table, column, type AbstractPowerSyncDatabase } from '@powersync/node';
import { openSyncClient, startSyncServer, waitFor } from '../../tests/server/sync-support.ts';

const kind = process.env['TEST_DATABASE_URL'] ? 'postgres' : 'pglite';
const N = Number(process.env['N'] ?? 30);
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
    else if (chunk.includes('checkpoint_diff')) mark('diff');
    else if (chunk.includes('checkpoint_complete')) mark('complete');
  }
  return (origWrite as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
} as never;
const t = await startSyncServer(kind, { rulesYaml, setupSql });
await t.db.listen('heartsync_sync_changes', () => mark('notify'));
const spans: { sample: string; label: string; start: number; end: number }[] = [];
const db = t.ctx.db as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
for (const name of ['query', 'transaction'] as const) {
  const orig = db[name]!.bind(db);
  db[name] = async (...a: unknown[]) => {
    const start = performance.now();
    const sample = current;
    try {
      return await orig(...a);
    } finally {
      const label = name === 'query' ? String(a[0]).replace(/\s+/g, ' ').slice(0, 50) : 'transaction';
      spans.push({ sample, label, start, end: performance.now() });
    }
  };
}
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
};
const writer = await openSyncClient(t, schema, () => t.signToken('writer'), upload);
const reader = await openSyncClient(t, schema, () => t.signToken('reader'));
await writer.db.waitForFirstSync();
await reader.db.waitForFirstSync();
const rows: Record<string, number>[] = [];
for (let i = 0; i < N; i++) {
  const id = crypto.randomUUID();
  current = id;
  const m: Record<string, number> = {};
  marks.set(id, m);
  const started = performance.now();
  m['start'] = started;
  await writer.db.execute('insert into bench_notes (id, room, author, body) values (?, ?, ?, ?)', [
    id,
    'lobby',
    'writer',
    'x'.repeat(200),
  ]);
  mark('local');
  await waitFor(
    () => reader.db.getAll('select id from bench_notes where id = ?', [id]),
    (r) => r.length === 1,
    10_000,
    1,
  );
  m['seen'] = performance.now();
  rows.push(Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v - started])));
  await new Promise((r) => setTimeout(r, 50));
}
const keys = ['local', 'upload', 'inserted', 'notify', 'committed', 'diff', 'line', 'complete', 'seen'];
const med = (xs: number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
for (const k of keys) {
  const xs = rows.map((r) => r[k] ?? NaN);
  const s = [...xs].sort((a, b) => a - b);
  console.log(
    k.padEnd(10),
    'p50',
    med(xs).toFixed(1),
    'p90',
    (s[Math.floor(s.length * 0.9)] ?? NaN).toFixed(1),
    'max',
    (s.at(-1) ?? NaN).toFixed(1),
  );
}
const last = [...marks.keys()].at(-3)!;
const m0 = marks.get(last)!['start']!;
for (const sp of spans.filter((x) => x.sample === last))
  console.log((sp.start - m0).toFixed(1), (sp.end - m0).toFixed(1), sp.label);
console.log(Object.fromEntries(Object.entries(marks.get(last)!).map(([k, v]) => [k, (v - m0).toFixed(1)])));
await writer.close();
await reader.close();
await t.close();
process.exit(0);
