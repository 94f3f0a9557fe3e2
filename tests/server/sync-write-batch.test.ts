// The replicator's batch write (decision 0113): a batch of a few rows goes through write_small_batch, whose plan
// is made once per connection and reaches the sync tables by index probes only, whatever their size; a bigger
// batch goes through write_batch, planned for its size. Both write the same state.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../server/db/database.ts';
import { Replicator, SMALL_BATCH_ROWS } from '../../server/sync/replicator.ts';
import { loadRules } from '../../server/sync/rules.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';

const rules = loadRules(`
bucket_definitions:
  own_lists:
    parameters: select id as list_id from w_lists where owner_id = request.user_id()
    data:
      - select id, list_id, title from w_items where list_id = bucket.list_id
`);

/** Which write function each replication pass called, in order. */
function recordWrites(db: Database, calls: string[]): Database {
  const recording = (tx: Queryable): Queryable =>
    new Proxy(tx, {
      get(target, prop) {
        const value = Reflect.get(target, prop) as unknown;
        if (prop !== 'query' || typeof value !== 'function') return value;
        return (sql: string, ...rest: unknown[]) => {
          const fn = /heartsync_sync\.(write_small_batch|write_batch)\(/.exec(sql)?.[1];
          if (fn) calls.push(fn);
          return (value as (...a: unknown[]) => unknown).call(target, sql, ...rest);
        };
      },
    });
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'transaction') {
        return (fn: (tx: Queryable) => Promise<unknown>, options?: unknown) =>
          (target.transaction as (f: typeof fn, o?: unknown) => Promise<unknown>)(
            (tx) => fn(recording(tx)),
            options,
          );
      }
      const value = Reflect.get(target, prop) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe.each(getDatabaseKinds())('sync batch writes on %s', (kind) => {
  let db: TestDatabase;
  let replicator: Replicator;
  const calls: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await db.exec(`
      create table public.w_lists (id text primary key, owner_id text not null);
      create table public.w_items (id text primary key, list_id text not null, title text not null);
    `);
    replicator = new Replicator(recordWrites(db, calls), rules, { warn: () => {}, error: () => {} });
    await replicator.start({ pollMs: 600_000 });
  });
  afterAll(async () => {
    await replicator?.stop();
    await db?.destroy();
  });

  async function readMemberships(itemId: string): Promise<string[]> {
    const { rows } = await db.query<{ bucket: string }>(
      `select bucket from heartsync_sync.current_rows where object_type = 'w_items' and object_id = $1
        order by bucket`,
      [itemId],
    );
    return rows.map((r) => r.bucket);
  }

  it("writes a member's write of one row with the plan made once, and a big copy planned for its size", async () => {
    calls.length = 0;
    await db.query(`insert into public.w_lists (id, owner_id) values ('L1', 'ann'), ('L2', 'ann')`);
    await db.query(`insert into public.w_items (id, list_id, title) values ('i1', 'L1', 'milk')`);
    await replicator.flush();
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls)).toEqual(new Set(['write_small_batch']));
    const { rows: lookups } = await db.query<{ n: number }>(
      'select count(*)::int as n from heartsync_sync.parameter_lookups',
    );
    expect(lookups[0]?.n).toBe(2);
    expect(await readMemberships('i1')).toEqual(['own_lists["L1"]']);

    // Moved to the other list: the old membership ends (a REMOVE op), the new one starts.
    calls.length = 0;
    await db.query(`update public.w_items set list_id = 'L2' where id = 'i1'`);
    await replicator.flush();
    expect(new Set(calls)).toEqual(new Set(['write_small_batch']));
    expect(await readMemberships('i1')).toEqual(['own_lists["L2"]']);
    const { rows: ops } = await db.query<{ bucket: string; op: string }>(
      `select bucket, op from heartsync_sync.ops where object_id = 'i1' order by op_id`,
    );
    expect(ops).toHaveLength(3);
    expect(ops[0]).toEqual({ bucket: 'own_lists["L1"]', op: 'PUT' });
    expect(ops).toEqual(
      expect.arrayContaining([
        { bucket: 'own_lists["L1"]', op: 'REMOVE' },
        { bucket: 'own_lists["L2"]', op: 'PUT' },
      ]),
    );

    // More rows in one transaction than a small batch holds.
    calls.length = 0;
    const many = SMALL_BATCH_ROWS * 2;
    await db.query(
      `insert into public.w_items (id, list_id, title) select 'm' || g, 'L1', 'item ' || g from generate_series(1, $1) g`,
      [many],
    );
    await replicator.flush();
    expect(calls).toContain('write_batch');
    const { rows: copied } = await db.query<{ n: number }>(
      `select count(*)::int as n from heartsync_sync.current_rows where bucket = 'own_lists["L1"]' and object_type = 'w_items'`,
    );
    expect(copied[0]?.n).toBe(many);

    // The state both functions keep agrees with the rows: each bucket's checksum is the sum of its ops'.
    const { rows: sums } = await db.query<{ bucket: string; kept: string; summed: string }>(
      `select b.bucket, b.checksum::text as kept, (sum(o.checksum) % 4294967296)::text as summed
         from heartsync_sync.buckets b join heartsync_sync.ops o on o.bucket = b.bucket
        where b.bucket like 'own_lists%' group by b.bucket, b.checksum`,
    );
    expect(sums.length).toBe(2);
    for (const s of sums) expect(s.kept).toBe(s.summed);
  });

  it('reaches the membership and lookup tables of a small batch by index probes only, however small they are', async () => {
    // The scan counts this connection has not reported yet (pg_stat_xact_*; they may hold earlier statements'
    // too, so the call's are the difference), in a transaction rolled back: the batch removes a membership and
    // a parameter row's lookups, which reads both tables.
    class RolledBack {
      constructor(readonly rows: { relname: string; seq_scan: number }[]) {}
    }
    const readScans = async (tx: Queryable) =>
      (
        await tx.query<{ relname: string; seq_scan: string }>(
          `select relname, seq_scan::text from pg_stat_xact_all_tables
            where schemaname = 'heartsync_sync' and relname in ('current_rows', 'parameter_lookups')
            order by relname`,
        )
      ).rows;
    const scans = () =>
      db
        .transaction(async (tx) => {
          const before = await readScans(tx);
          await tx.query(
            `select * from heartsync_sync.write_small_batch(
               1, $1, $2, $3, $4, $5, $6, $7, $1, $7, $2, $2,
               $8, $9, $1, $4, $5,
               $8, $9, $1, $4, $5, $7, $2,
               $10, $11, '{}', '{}', '{}', '{}')`,
            [
              ['scan_probe[]'],
              [1],
              ['PUT'],
              ['w_items'],
              ['x1'],
              ['{"title":"x"}'],
              [7],
              ['public.w_items'],
              ['x1'],
              ['public.w_lists'],
              ['L9'],
            ],
          );
          const after = await readScans(tx);
          throw new RolledBack(
            after.map((a, i) => ({
              relname: a.relname,
              seq_scan: Number(a.seq_scan) - Number(before[i]?.seq_scan),
            })),
          );
        })
        .then(
          () => [],
          (e: unknown) => {
            if (e instanceof RolledBack) return e.rows;
            throw e;
          },
        );
    expect(await scans()).toEqual([
      { relname: 'current_rows', seq_scan: 0 },
      { relname: 'parameter_lookups', seq_scan: 0 },
    ]);
  });
});
