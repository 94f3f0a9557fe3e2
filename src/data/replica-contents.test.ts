// The check against the real sync engine (@powersync/node: the same SQLite core extension as the web client) and
// the app's schema: a new file holds nothing; any row the engine's own wipe would delete counts.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { PowerSyncDatabase } from '@powersync/node';
import { afterEach, describe, expect, it } from 'vitest';
import { AppSchema } from './schema.ts';
import { replicaHoldsData } from './replica-contents.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-replica-contents-'));
const open: PowerSyncDatabase[] = [];

let files = 0;

/**
 * The engine's SQLite workers start as plain Node, without the test runner's loader (which about doubles an
 * opening, tests/server/sync-support.ts): each case opens the engine once or twice.
 */
const openWorker = (...[file, options]: ConstructorParameters<typeof Worker>) =>
  new Worker(file, { ...options, execArgv: [] });

async function newReplica(dbFilename = `r-${++files}.db`): Promise<PowerSyncDatabase> {
  const db = new PowerSyncDatabase({
    schema: AppSchema,
    database: { dbFilename, dbLocation: dir, openWorker },
  });
  open.push(db);
  await db.init();
  return db;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
});

// An opening took 2.5-4 s on a loaded two-core machine (another suite beside it): room for two per case.
describe('replicaHoldsData', { timeout: 30_000 }, () => {
  it('is false for a file the engine has just created, and again after a reopen', async () => {
    const db = await newReplica('reopened.db');
    expect(await replicaHoldsData(db)).toBe(false);
    await db.close();
    expect(await replicaHoldsData(await newReplica('reopened.db'))).toBe(false);
  });

  // One file per kind of row: each case opens the engine (a worker thread) and wipes the file, which under a
  // loaded two-core run took over 5 s for all four in one test.
  const writes: [string, (db: PowerSyncDatabase) => Promise<unknown>][] = [
    // A write to a synced table also queues its upload (ps_crud).
    ['synced row', (db) => db.execute("insert into profiles (id, name) values ('a', 'Ann')")],
    [
      'local-only row',
      (db) => db.execute("insert into message_drafts (id, content) values ('c', 'half a sentence')"),
    ],
    [
      'key-value row of the engine',
      (db) => db.execute("insert into ps_kv (key, value) values ('last_synced_at', '1')"),
    ],
    [
      'bucket row',
      (db) => db.execute('insert into ps_buckets (name, last_applied_op) values (\'member["a"]\', 3)'),
    ],
  ];
  it.each(writes)('a %s counts as data, and nothing does after the wipe', async (what, write) => {
    const db = await newReplica();
    await write(db);
    expect(await replicaHoldsData(db), what).toBe(true);
    await db.disconnectAndClear({ clearLocal: true });
    expect(await replicaHoldsData(db), `${what}, wiped`).toBe(false);
  });
});
