// Compaction never lets a client diverge silently: for random histories and any download position, a
// client that continues after compaction either holds exactly the server's rows with a matching checksum,
// or sees a checksum mismatch (and re-downloads, as the SDK does).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactBuckets } from '../../server/sync/compact.ts';
import { readCheckpoint, readOps, readOpsJson, type StoredOp } from '../../server/sync/bucket-storage.ts';
import { Replicator } from '../../server/sync/replicator.ts';
import { loadRules } from '../../server/sync/rules.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';

const rules = loadRules(`
bucket_definitions:
  by_group:
    parameters: select request.user_id() as grp
    data:
      - select id, v from c_rows where grp = bucket.grp
`);
const BUCKETS = ['by_group["a"]', 'by_group["b"]'];
const MOD = 4294967296;

interface ClientBucket {
  rows: Map<string, string>;
  sum: number;
}

/** The client's bucket semantics: PUT/REMOVE change rows, every op adds its checksum, CLEAR resets. */
function applyOps(state: ClientBucket, ops: StoredOp[]) {
  for (const op of ops) {
    if (op.op === 'CLEAR') {
      state.rows.clear();
      state.sum = op.checksum;
      continue;
    }
    if (op.op === 'PUT') state.rows.set(`${op.object_type}/${op.object_id}`, op.data ?? '');
    if (op.op === 'REMOVE') state.rows.delete(`${op.object_type}/${op.object_id}`);
    state.sum = (state.sum + op.checksum) % MOD;
  }
}

const write = fc.oneof(
  fc.record({
    kind: fc.constant('upsert' as const),
    id: fc.integer({ min: 1, max: 6 }),
    grp: fc.constantFrom('a', 'b'),
  }),
  fc.record({ kind: fc.constant('delete' as const), id: fc.integer({ min: 1, max: 6 }) }),
);

describe.each(getDatabaseKinds())('compaction on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await db.exec('create table public.c_rows (id int primary key, grp text not null, v int not null)');
  });
  afterAll(async () => {
    await db?.destroy();
  });

  /** Every op of a bucket in pages; the stream's JSON text of each page says the same as its rows. */
  async function readAll(bucket: string, after: string, head: string, limit = 1000): Promise<StoredOp[]> {
    const all: StoredOp[] = [];
    for (;;) {
      const page = await readOps(db, bucket, after, head, limit);
      const json = await readOpsJson(db, bucket, after, head, limit);
      expect(JSON.parse(json.json)).toEqual(page.ops);
      expect(json.last).toBe(page.ops.at(-1)?.op_id);
      expect(json.hasMore).toBe(page.hasMore);
      all.push(...page.ops);
      const last = page.ops.at(-1);
      if (!last || !page.hasMore) return all;
      after = last.op_id;
    }
  }

  it('keeps every client position either exact or detectably different', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(write, { minLength: 1, maxLength: 40 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (writes, cut) => {
          await db.exec(`delete from public.c_rows; delete from heartsync_sync.changes; delete from heartsync_sync.ops;
          delete from heartsync_sync.buckets; delete from heartsync_sync.current_rows;`);
          const replicator = new Replicator(db, rules, { warn: () => {}, error: () => {} });
          await replicator.start({ pollMs: 60_000 });
          try {
            let v = 0;
            for (const w of writes) {
              v += 1;
              if (w.kind === 'upsert') {
                await db.query(
                  'insert into public.c_rows (id, grp, v) values ($1, $2, $3) on conflict (id) do update set grp = $2, v = $3',
                  [w.id, w.grp, v],
                );
              } else {
                await db.query('delete from public.c_rows where id = $1', [w.id]);
              }
            }
            await replicator.flush();
            const before = await readCheckpoint(db, BUCKETS);
            // A client that downloaded up to some position before compaction...
            const clients = new Map<string, ClientBucket & { position: string }>();
            for (const bucket of BUCKETS) {
              const ops = await readAll(bucket, '0', before.head);
              const position = ops[Math.floor(cut * ops.length)]?.op_id ?? '0';
              const state = { rows: new Map<string, string>(), sum: 0, position };
              applyOps(
                state,
                ops.filter((o) => BigInt(o.op_id) <= BigInt(position)),
              );
              clients.set(bucket, state);
            }
            await compactBuckets(db);
            const after = await readCheckpoint(db, BUCKETS);
            expect(after.head).toBe(before.head);
            for (const bucket of BUCKETS) {
              // Checksums survive compaction.
              expect(after.checksums.get(bucket)?.checksum).toBe(before.checksums.get(bucket)?.checksum);
              const truth = new Map(
                (
                  await db.query<{ id: number; v: number }>(
                    'select id, v from public.c_rows where grp = $1',
                    [bucket.includes('"a"') ? 'a' : 'b'],
                  )
                ).rows.map((r) => [`c_rows/${r.id}`, JSON.stringify({ v: r.v })]),
              );
              // A fresh client gets exactly the rows, with the right checksum.
              const fresh = { rows: new Map<string, string>(), sum: 0 };
              applyOps(fresh, await readAll(bucket, '0', after.head, 3));
              expect(fresh.rows).toEqual(truth);
              expect(fresh.sum).toBe(after.checksums.get(bucket)?.checksum ?? 0);
              // The client that was part way through continues from its position.
              const client = clients.get(bucket)!;
              applyOps(client, await readAll(bucket, client.position, after.head));
              if (client.sum === (after.checksums.get(bucket)?.checksum ?? 0))
                expect(client.rows).toEqual(truth);
            }
          } finally {
            await replicator.stop();
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('compacts only the buckets written since the last pass, a group of them per transaction', async () => {
    await db.exec(`delete from public.c_rows; delete from heartsync_sync.changes; delete from heartsync_sync.ops;
      delete from heartsync_sync.buckets; delete from heartsync_sync.current_rows;`);
    const replicator = new Replicator(db, rules, { warn: () => {}, error: () => {} });
    await replicator.start({ pollMs: 60_000 });
    try {
      await compactBuckets(db);
      // 1,500 buckets (more than one transaction's group), each with a row written twice: one PUT superseded.
      await db.query(
        `insert into public.c_rows (id, grp, v) select g, 'g' || g, 1 from generate_series(1, 1500) g`,
      );
      await db.query('update public.c_rows set v = 2');
      await replicator.flush();
      expect(await compactBuckets(db)).toEqual({ buckets: 1500, moved: 1500, cleared: 0, deleted: 0 });
      // Nothing written since: nothing read.
      expect(await compactBuckets(db)).toEqual({ buckets: 0, moved: 0, cleared: 0, deleted: 0 });
      // One bucket written again: that one alone.
      await db.query(`update public.c_rows set v = 3 where id = 7`);
      await replicator.flush();
      expect(await compactBuckets(db)).toMatchObject({ buckets: 1, moved: 1 });
      const ops = await readOps(db, 'by_group["g7"]', '0', '999999999999', 1000);
      // Its two superseded PUTs are one MOVE now, before the row's last PUT.
      expect(ops.ops.map((o) => o.op)).toEqual(['MOVE', 'PUT']);
    } finally {
      await replicator.stop();
    }
  });

  it("writes a page's JSON text with every string escaped as JSON", async () => {
    const texts = ['quote " and backslash \\', 'line\nbreak\ttab\u0001', 'unicode é 💘 \u2028', '{"v":1}'];
    await db.query(
      `insert into heartsync_sync.ops (bucket, op_id, op, object_type, object_id, data, checksum)
       select 'escape-test', 9000000 + i, 'PUT', t, t, t, i from unnest($1::text[]) with ordinality as x(t, i)`,
      [texts],
    );
    const page = await readOpsJson(db, 'escape-test', '0', '99999999', 1000);
    const ops = JSON.parse(page.json) as StoredOp[];
    expect(ops.map((o) => [o.object_type, o.object_id, o.data])).toEqual(texts.map((t) => [t, t, t]));
    expect(ops).toEqual((await readOps(db, 'escape-test', '0', '99999999', 1000)).ops);
    await db.query(`delete from heartsync_sync.ops where bucket = 'escape-test'`);
  });
});
