// The sync service's first copy of rows a table held before the service started (the snapshot): read in
// chunks through one cursor, every row reaches the member's replica exactly once, in more chunks than one.
// On PostgreSQL a first copy evaluates each chunk while the one before is written (decision 0087); a copy
// over rows already stored compares each chunk with what is stored, as every other batch does. Writers are not
// held while a table is copied (decision 0088).
import crypto from 'node:crypto';
import { Schema, Table, column } from '@powersync/node';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { within } from '../support/within.ts';
import { openSyncClient, startSyncServer, type SyncClient, type SyncTestServer } from './sync-support.ts';

const owner = crypto.randomUUID();
const other = crypto.randomUUID();
// 2,345 rows of hers: two whole chunks of the snapshot (1,000 each) and part of a third; 10 of someone else's.
const ROWS = 2345;
// Exactly two chunks: the copy ends on an empty fetch.
const MARKS = 2000;
const setupSql = `
  create table public.t_notes (id uuid primary key, owner_id uuid not null, n int not null);
  insert into public.t_notes (id, owner_id, n) select gen_random_uuid(), '${owner}', g from generate_series(1, ${ROWS}) g;
  insert into public.t_notes (id, owner_id, n) select gen_random_uuid(), '${other}', g from generate_series(1, 10) g;
  create table public.t_marks (id int primary key, owner_id uuid not null);
  insert into public.t_marks (id, owner_id) select g, '${owner}' from generate_series(1, ${MARKS}) g;
`;
const rulesYaml = `
bucket_definitions:
  own_notes:
    parameters: select request.user_id() as owner_id
    data:
      - select id, n from t_notes where owner_id = bucket.owner_id
      - select id, owner_id from t_marks where owner_id = bucket.owner_id
`;
const schema = new Schema({
  t_notes: new Table({ n: column.integer }),
  t_marks: new Table({ owner_id: column.text }),
});

async function countOps(t: SyncTestServer): Promise<number> {
  const ops = await t.db.query<{ n: string }>(
    `select count(*)::text as n from heartsync_sync.ops where bucket like 'own_notes%'`,
  );
  return Number(ops.rows[0]!.n);
}

describe.each(getDatabaseKinds())('the sync snapshot on %s', (kind) => {
  let t: SyncTestServer;
  let client: SyncClient | undefined;
  beforeAll(async () => {
    t = await startSyncServer(kind, { rulesYaml, setupSql });
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('copies every row the table held before the service started, once, in several chunks', async () => {
    client = await openSyncClient(t, schema, () => t.signToken(owner));
    await client.db.waitForFirstSync();
    const rows = await client.db.getAll<{ n: number }>('select n from t_notes order by n');
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
    expect(await client.db.getAll('select id from t_marks')).toHaveLength(MARKS);
    // The server's side: one op per row, none read twice or skipped between chunks.
    expect(await countOps(t)).toBe(ROWS + 10 + MARKS);
  });

  it('copies a table again without an op for the rows already stored as they are', async () => {
    await t.stop();
    // A copy that finds memberships stored (as an interrupted first copy could leave them): only a row that
    // changed since gets an op. Evaluated blind, as a first copy is, all 4,355 rows would get one again.
    await t.db.exec(`update heartsync_sync.captured_tables set snapshot_done = false;
      alter table public.t_notes disable trigger heartsync_sync_capture;
      update public.t_notes set n = 0 where n = 1 and owner_id = '${owner}';
      alter table public.t_notes enable trigger heartsync_sync_capture;`);
    await t.start();
    expect(await countOps(t)).toBe(ROWS + 10 + MARKS + 1);
    const done = await t.db.query<{ n: string }>(
      'select count(*)::text as n from heartsync_sync.captured_tables where not snapshot_done',
    );
    expect(done.rows[0]!.n).toBe('0');
  });

  it('rebuilds the ops from the tables when the rules change, one op per row', async () => {
    await t.stop();
    const renamed = await startSyncServer(kind, {
      rulesYaml: rulesYaml.replace('own_notes:', 'my_notes:'),
      db: t.db,
    });
    try {
      const { rows } = await t.db.query<{ definition: string; n: string }>(
        `select split_part(bucket, '[', 1) as definition, count(*)::text as n from heartsync_sync.ops group by 1`,
      );
      expect(rows).toEqual([{ definition: 'my_notes', n: String(ROWS + 10 + MARKS) }]);
    } finally {
      await renamed.close();
    }
  });
});

describe.runIf(getDatabaseKinds().includes('postgres'))(
  'the sync snapshot beside writers on postgres',
  () => {
    let t: SyncTestServer | undefined;
    let client: SyncClient | undefined;
    let writer: pg.Client | undefined;
    afterAll(async () => {
      await writer?.end().catch(() => {});
      await client?.close();
      await t?.close();
    });

    it("copies a table while a member's write to it is open, and the write reaches the replica once committed", async () => {
      t = await startSyncServer('postgres', { rulesYaml, setupSql });
      await t.stop();
      // New rules (as the hash says): the next start copies every table again, from nothing stored.
      await t.db.exec(`update heartsync_sync.state set rules_hash = 'rules of an earlier version'`);
      writer = new pg.Client({ connectionString: t.db.url });
      await writer.connect();
      await writer.query('begin');
      await writer.query(`update public.t_notes set n = -5 where n = 5 and owner_id = $1`, [owner]);
      await writer.query(
        `insert into public.t_notes (id, owner_id, n) values (gen_random_uuid(), $1, 9999)`,
        [owner],
      );
      // A copy that held writers off would wait for this open transaction, and the open transaction for nothing.
      await within(t.start(), 30_000, 'the copy waited for the open write');
      await writer.query('commit');
      await t.sync.replicator.flush();
      client = await openSyncClient(t, schema, () => t!.signToken(owner));
      await client.db.waitForFirstSync();
      const rows = await client.db.getAll<{ n: number }>('select n from t_notes order by n');
      const expected = [-5, ...Array.from({ length: ROWS }, (_, i) => i + 1).filter((n) => n !== 5), 9999];
      expect(rows.map((r) => r.n)).toEqual(expected);
      expect(await client.db.getAll('select id from t_marks')).toHaveLength(MARKS);
    });
  },
);
