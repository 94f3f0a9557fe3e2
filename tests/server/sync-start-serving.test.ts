// The server answers while the sync service copies the tables (first start, new rules), on PostgreSQL
// (decision 0088): health says which table is being copied, a sync stream is accepted and held without a
// checkpoint until the copy ends, and a write checkpoint answers 503 meanwhile (the client asks again).
import crypto from 'node:crypto';
import { Schema, Table, column } from '@powersync/node';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { within } from '../support/within.ts';
import {
  openSyncClient,
  startSyncServer,
  waitFor,
  type SyncClient,
  type SyncTestServer,
} from './sync-support.ts';

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

interface Health {
  code: number;
  status: string;
  sync?: { ready: boolean; copying?: { table: string; rows_copied: number; tables_after: number } };
}

async function getHealth(t: SyncTestServer): Promise<Health> {
  const res = await fetch(`${t.url}/health`);
  return { code: res.status, ...((await res.json()) as Omit<Health, 'code'>) };
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
    // New rules (as the hash says): the next start copies every table again. The copy's cursor waits for the
    // lock this test holds on the table, so the copy is in progress for as long as the test wants.
    await t.db.exec(`update heartsync_sync.state set rules_hash = 'rules of an earlier version'`);
    locker = new pg.Client({ connectionString: t.db.url });
    await locker.connect();
    await locker.query('begin');
    await locker.query('lock table public.t_cards in access exclusive mode');

    await within(t.start(), 20_000, 'the server did not answer before the copy ended');
    await waitFor(
      () => getHealth(t!),
      (h) => h.sync?.copying !== undefined,
    );
    expect(await getHealth(t)).toEqual({
      code: 200,
      status: 'ok',
      database: expect.objectContaining({ ok: true }),
      sync: { ready: false, copying: { table: 'public.t_cards', rows_copied: 0, tables_after: 0 } },
    });

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

  it('tries a failed start again, and the held stream syncs once it succeeds', async () => {
    // The database is away for the start's first transaction (the rules' rebuild), then back.
    const db = await createTestDatabase('postgres');
    await db.exec(setupSql);
    let failed = 0;
    const flaky: TestDatabase = {
      ...db,
      transaction: (fn) => {
        if (failed++ === 0) return Promise.reject(new Error('Connection terminated unexpectedly'));
        return db.transaction(fn);
      },
    };
    const s = await startSyncServer('postgres', {
      rulesYaml,
      db: flaky,
      waitForCopy: false,
      startRetryMs: 2000,
    });
    let retried: SyncClient | undefined;
    try {
      expect((await getHealth(s)).sync).toEqual({ ready: false });
      retried = await openSyncClient(s, schema, () => s.signToken(owner));
      await retried.db.waitForFirstSync();
      expect(await retried.db.getAll('select id from t_cards')).toHaveLength(ROWS);
      expect((await getHealth(s)).sync).toEqual({ ready: true });
      expect(failed).toBeGreaterThan(1); // the failed transaction, then the ones of the start that worked
    } finally {
      await retried?.close();
      await s.close();
      await db.destroy();
    }
  });
});
