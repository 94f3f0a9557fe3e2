// Two server processes on one PostgreSQL database with different sync rules (a deploy that changes
// sync-rules.yaml while a process with the old file still runs, decision 0088): the new process rebuilds the
// ops for its rules; the old one stops replicating (its ops would mix into the rebuilt ones), ends its sync
// streams and answers 503 to new ones, so its clients connect again, to a process with the new rules.
import crypto from 'node:crypto';
import { Schema, Table, column } from '@powersync/node';
import { afterAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import {
  openSyncClient,
  startSyncServer,
  waitFor,
  type SyncClient,
  type SyncTestServer,
} from './sync-support.ts';

const owner = crypto.randomUUID();
const setupSql = `
  create table public.t_items (id uuid primary key, owner_id uuid not null, n int not null);
  insert into public.t_items (id, owner_id, n) select gen_random_uuid(), '${owner}', g from generate_series(1, 20) g;
`;
const rulesFor = (name: string) => `
bucket_definitions:
  ${name}:
    parameters: select request.user_id() as owner_id
    data:
      - select id, n from t_items where owner_id = bucket.owner_id
`;
const schema = new Schema({ t_items: new Table({ n: column.integer }) });

async function bucketNames(t: SyncTestServer): Promise<string[]> {
  const { rows } = await t.db.query<{ bucket: string }>(
    'select distinct bucket from heartsync_sync.ops order by bucket',
  );
  return rows.map((r) => r.bucket.replace(/\[.*$/, ''));
}

describe.runIf(getDatabaseKinds().includes('postgres'))('sync rules replaced by another process', () => {
  let old: SyncTestServer | undefined;
  let next: SyncTestServer | undefined;
  let client: SyncClient | undefined;
  afterAll(async () => {
    await client?.close();
    await next?.close();
    await old?.close();
  });

  it('the process with the old rules stops replicating and serving; the new one serves every row', async () => {
    old = await startSyncServer('postgres', { rulesYaml: rulesFor('items_v1'), setupSql });
    client = await openSyncClient(old, schema, () => old!.signToken(owner));
    await client.db.waitForFirstSync();
    expect(await bucketNames(old)).toEqual(['items_v1']);

    next = await startSyncServer('postgres', { rulesYaml: rulesFor('items_v2'), db: old.db });
    expect(await bucketNames(next)).toEqual(['items_v2']);
    // The rebuild notifies: the old process finds the rules changed on its next pass.
    await waitFor(
      async () => old!.sync.replicator.superseded,
      (v) => v,
    );
    const health = (await (await fetch(`${old.url}/health`)).json()) as { sync: unknown };
    expect(health.sync).toEqual({ ready: false, superseded: true });

    // A change with only the old process running: it claims nothing, so no op of the old rules is written.
    await next.stop();
    await old.db.query('update public.t_items set n = -1 where n = 1');
    await old.sync.replicator.flush();
    expect(await bucketNames(old)).toEqual(['items_v2']);
    const stream = await fetch(`${old.url}/sync/stream`, {
      method: 'POST',
      headers: { authorization: `Token ${await old.signToken(owner)}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(stream.status).toBe(503);
    const checkpoint = await fetch(`${old.url}/write-checkpoint2.json?client_id=c1`, {
      headers: { authorization: `Token ${await old.signToken(owner)}` },
    });
    expect(checkpoint.status).toBe(503);

    // The new process picks the change up when it starts again, for its own rules.
    await next.start();
    await next.sync.replicator.flush();
    expect(await bucketNames(next)).toEqual(['items_v2']);
    const { rows } = await next.db.query<{ n: string }>(
      `select count(*)::text as n from heartsync_sync.ops where data::text like '%"n": -1%' or data::text like '%"n":-1%'`,
    );
    expect(rows[0]!.n).toBe('1');
  });
});
