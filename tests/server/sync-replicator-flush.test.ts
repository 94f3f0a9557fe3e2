// The replicator's flush (what a write checkpoint waits for): every change committed before the call is in
// the ops when it resolves, also on PostgreSQL before the change's notification has arrived; and with nothing
// left in the change log it runs no replication pass (on PostgreSQL it reads the log once instead).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { Replicator } from '../../server/sync/replicator.ts';
import { loadRules } from '../../server/sync/rules.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';

const rules = loadRules(`
bucket_definitions:
  everything:
    data:
      - select id, v from f_rows
`);

describe.each(getDatabaseKinds())('replicator flush on %s', (kind) => {
  let db: TestDatabase;
  let replicator: Replicator;
  let passes = 0;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await db.exec('create table public.f_rows (id int primary key, v int not null)');
    // Every replication pass is one transaction: count them.
    const counting = new Proxy(db as Database, {
      get(target, prop) {
        if (prop === 'transaction') {
          return (fn: Parameters<Database['transaction']>[0]) => {
            passes += 1;
            return target.transaction(fn);
          };
        }
        const value = Reflect.get(target, prop) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    replicator = new Replicator(counting, rules, { warn: () => {}, error: () => {} });
    // No poll during the test: only flushes and notifications make passes.
    await replicator.start({ pollMs: 600_000 });
  });
  afterAll(async () => {
    await replicator?.stop();
    await db?.destroy();
  });

  async function readReplicatedValue(id: number): Promise<number | undefined> {
    const { rows } = await db.query<{ data: string }>(
      `select o.data from heartsync_sync.ops o
        where o.bucket = 'everything[]' and o.object_type = 'f_rows' and o.object_id = $1
        order by o.op_id desc limit 1`,
      [String(id)],
    );
    return rows[0] ? (JSON.parse(rows[0].data) as { v: number }).v : undefined;
  }

  it('has every change committed before the call in the ops when it resolves', async () => {
    for (let i = 1; i <= 20; i++) {
      await db.query(
        'insert into public.f_rows (id, v) values ($1, $2) on conflict (id) do update set v = $2',
        [i % 5, i],
      );
      await replicator.flush();
      expect(await readReplicatedValue(i % 5)).toBe(i);
    }
  });

  it('runs no replication pass when the log is empty', async () => {
    await db.query('insert into public.f_rows (id, v) values (100, 1)');
    await replicator.flush();
    // Let the insert's notification (and any pass it starts) settle first.
    await new Promise((r) => setTimeout(r, 200));
    await replicator.flush();
    const before = passes;
    for (let i = 0; i < 5; i++) await replicator.flush();
    expect(passes).toBe(before);
  });
});
