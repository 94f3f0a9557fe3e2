// The server answers while the sync service copies the tables (first start, new rules), on PostgreSQL
// (decision 0088): health says the copy is not done, a sync stream is accepted and held without a checkpoint
// until it is, and a write checkpoint answers 503 meanwhile (the client asks again).
import crypto from 'node:crypto';
import { Schema, Table, column } from '@powersync/node';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ADVISORY_LOCK_KEY } from '../../server/sync/replicator.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { openSyncClient, startSyncServer, type SyncClient, type SyncTestServer } from './sync-support.ts';

const owner = crypto.randomUUID();
const ROWS = 50;
const setupSql = `
  create table public.t_cards (id uuid primary key, owner_id uuid not null, n int not null);
  insert into public.t_cards (id, owner_id, n) select gen_random_uuid(), '${owner}', g from generate_series(1, ${ROWS}) g;
`;
const rulesYaml = `
bucket_definitions:
  own_cards:
    parameters: select request.user_id() as owner_id
    data:
      - select id, n from t_cards where owner_id = bucket.owner_id
`;
const schema = new Schema({ t_cards: new Table({ n: column.integer }) });

async function getHealth(
  t: SyncTestServer,
): Promise<{ code: number; status: string; sync?: { ready: boolean } }> {
  const res = await fetch(`${t.url}/health`);
  return { code: res.status, ...((await res.json()) as { status: string; sync?: { ready: boolean } }) };
}

describe.runIf(getDatabaseKinds().includes('postgres'))('serving while sync copies, on postgres', () => {
  let t: SyncTestServer | undefined;
  let client: SyncClient | undefined;
  let locker: pg.Client | undefined;
  afterAll(async () => {
    await locker?.end().catch(() => {});
    await client?.close();
    await t?.close();
  });

  it('answers during the copy, holds sync streams until it ends, then syncs every row', async () => {
    t = await startSyncServer('postgres', { rulesYaml, setupSql, waitForCopy: false });
    await t.sync.replicator.whenReady();
    await t.stop();
    // New rules (as the hash says): the next start copies every table again. The copy waits for the lock this
    // test holds, so it is in progress for as long as the test wants.
    await t.db.exec(`update heartsync_sync.state set rules_hash = 'rules of an earlier version'`);
    locker = new pg.Client({ connectionString: t.db.url });
    await locker.connect();
    await locker.query('begin');
    await locker.query('select pg_advisory_xact_lock($1)', [ADVISORY_LOCK_KEY]);

    let timer: NodeJS.Timeout | undefined;
    const held = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the server did not answer before the copy ended')), 20_000);
    });
    await Promise.race([t.start(), held]).finally(() => clearTimeout(timer));
    expect(await getHealth(t)).toMatchObject({ code: 200, status: 'ok', sync: { ready: false } });

    const token = await t.signToken(owner);
    const checkpoint = await fetch(`${t.url}/write-checkpoint2.json?client_id=c1`, {
      headers: { authorization: `Token ${token}` },
    });
    expect(checkpoint.status).toBe(503);
    expect(checkpoint.headers.get('retry-after')).toBe('5');

    const streamsBefore = t.streamRequests.length;
    client = await openSyncClient(t, schema, () => t!.signToken(owner));
    const firstSync = client.db.waitForFirstSync();
    const early = await Promise.race([
      firstSync.then(() => 'synced'),
      new Promise((resolve) => setTimeout(() => resolve('waiting'), 1500)),
    ]);
    expect(early).toBe('waiting');
    // One stream, held open: a refused one would have been asked for again every 200 ms.
    expect(t.streamRequests.length).toBe(streamsBefore + 1);
    expect(await client.db.getAll('select id from t_cards')).toHaveLength(0);

    await locker.query('commit');
    await firstSync;
    expect(await client.db.getAll('select id from t_cards')).toHaveLength(ROWS);
    expect(await getHealth(t)).toMatchObject({ code: 200, status: 'ok', sync: { ready: true } });
    const after = await fetch(`${t.url}/write-checkpoint2.json?client_id=c1`, {
      headers: { authorization: `Token ${token}` },
    });
    expect(after.status).toBe(200);
  });
});
