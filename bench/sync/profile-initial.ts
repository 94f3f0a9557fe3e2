// Where an initial sync's time goes: the server's whole answer read raw (NDJSON over HTTP, no client),
// against @powersync/node downloading and applying the same rows. Run: npx tsx bench/sync/profile-initial.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PowerSyncDatabase, Schema, SyncStreamConnectionMethod, Table, column } from '@powersync/node';
import { plainSdkWorkers, startSyncServer } from '../../tests/server/sync-support.ts';
import { BENCH_MEMBERS } from './members.ts';
import { readUntilCheckpointComplete } from './processes.ts';

const kind = process.env['TEST_DATABASE_URL'] ? 'postgres' : 'pglite';
const ROWS = Number(process.env['BENCH_ROWS'] ?? 10_000);
const setupSql = `create table public.bench_rows (id uuid primary key, owner text not null, title text not null, n int not null);`;
const rulesYaml = `
bucket_definitions:
  rows:
    parameters: select request.user_id() as owner
    data:
      - select id, owner, title, n from bench_rows where owner = bucket.owner`;
const schema = new Schema({
  bench_rows: new Table({ owner: column.text, title: column.text, n: column.integer }),
});

const t = await startSyncServer(kind, { rulesYaml, setupSql });
await t.db.query(
  `insert into bench_rows (id, owner, title, n) select gen_random_uuid(), $2, 'row ' || g, g from generate_series(1, $1) g`,
  [ROWS, BENCH_MEMBERS.owner],
);
await t.sync.replicator.flush();
const spans: string[] = [];
let t0 = 0;
if (process.env['SPANS']) {
  const db = t.ctx.db as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  const orig = db['query']!.bind(db);
  db['query'] = async (...a: unknown[]) => {
    const s = performance.now();
    try {
      return await orig(...a);
    } finally {
      spans.push(
        `${(s - t0).toFixed(1)}-${(performance.now() - t0).toFixed(1)} ${String(a[0]).replace(/\s+/g, ' ').slice(0, 60)}`,
      );
    }
  };
}
for (let round = 0; round < 3; round++) {
  let started = performance.now();
  t0 = started;
  spans.length = 0;
  const res = await fetch(`${t.url}/sync/stream`, {
    method: 'POST',
    headers: {
      authorization: `Token ${await t.signToken(BENCH_MEMBERS.owner)}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ buckets: [], client_id: 'raw' }),
  });
  let bytes = 0;
  let firstByte = NaN;
  await readUntilCheckpointComplete(res, (chunk) => {
    if (Number.isNaN(firstByte)) firstByte = performance.now() - started;
    bytes += chunk.byteLength;
  });
  const rawMs = performance.now() - started;
  if (process.env['SPANS']) console.log(spans.slice(0, 20).join('\n'));
  // The SDK's trace log names each powersync_control call (one per line received) as it returns.
  const controls: { at: number; what: string }[] = [];
  const logger = {
    log(record: { message?: unknown }) {
      const m = String(record.message ?? '');
      if (m.startsWith('powersync_control(')) controls.push({ at: performance.now(), what: m.slice(18, 60) });
    },
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-initial-'));
  const db = new PowerSyncDatabase({
    schema,
    database: { dbFilename: 'replica.db', dbLocation: dir, ...plainSdkWorkers },
    logger: logger as never,
  });
  await db.init();
  started = performance.now();
  await db.connect(
    {
      fetchCredentials: async () => ({ endpoint: t.url, token: await t.signToken(BENCH_MEMBERS.owner) }),
      uploadData: async () => {},
    },
    { connectionMethod: SyncStreamConnectionMethod.HTTP },
  );
  await db.waitForFirstSync();
  const sdkMs = performance.now() - started;
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const rel = controls.map((c) => `${(c.at - started).toFixed(0)} ${c.what.replace(/\s+/g, ' ')}`);
  if (process.env['CONTROLS']) console.log(rel.join('\n'));
  console.log(
    `${ROWS} rows: server answer read raw ${rawMs.toFixed(0)} ms (first byte ${firstByte.toFixed(0)} ms, ${(bytes / 1e6).toFixed(1)} MB); @powersync/node first sync ${sdkMs.toFixed(0)} ms`,
  );
}
await t.close();
process.exit(0);
