// The sync service's first copy of rows a table held before the service started (the snapshot): read in
// chunks through one cursor, every row reaches the member's replica exactly once, in more chunks than one.
import crypto from 'node:crypto';
import { Schema, Table, column } from '@powersync/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { openSyncClient, startSyncServer, type SyncClient, type SyncTestServer } from './sync-support.ts';

const owner = crypto.randomUUID();
const other = crypto.randomUUID();
// 2,345 rows of hers: two whole chunks of the snapshot (1,000 each) and part of a third; 10 of someone else's.
const ROWS = 2345;
const setupSql = `
  create table public.t_notes (id uuid primary key, owner_id uuid not null, n int not null);
  insert into public.t_notes (id, owner_id, n) select gen_random_uuid(), '${owner}', g from generate_series(1, ${ROWS}) g;
  insert into public.t_notes (id, owner_id, n) select gen_random_uuid(), '${other}', g from generate_series(1, 10) g;
`;
const rulesYaml = `
bucket_definitions:
  own_notes:
    parameters: select request.user_id() as owner_id
    data:
      - select id, n from t_notes where owner_id = bucket.owner_id
`;
const schema = new Schema({ t_notes: new Table({ n: column.integer }) });

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
    // The server's side: one op per row, none read twice or skipped between chunks.
    const ops = await t.db.query<{ n: string }>(
      `select count(*)::text as n from heartsync_sync.ops where bucket like 'own_notes%'`,
    );
    expect(Number(ops.rows[0]!.n)).toBe(ROWS + 10);
  });
});
