// PostgreSQL connection faults below the server: LISTEN survives the database going away and coming
// back (the sync replicator relies on it for prompt changes), and the pool recovers without a restart.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/open-postgres.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(50);
  }
  return check();
}

describe.runIf(getDatabaseKinds().includes('postgres'))('PostgreSQL behind a relay that goes down', () => {
  let testDb: TestDatabase;
  let proxy: TcpProxy;
  let db: Database;
  const errors: string[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    const target = new URL(testDb.url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(testDb.url!);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    db = await openPostgres(viaProxy.toString(), { max: 3, onError: (e) => errors.push(e.message) });
  });
  afterAll(async () => {
    await db?.close();
    await proxy?.close();
    await testDb?.destroy();
  });

  async function notifyDirect(channel: string, payload: string) {
    const c = new pg.Client({ connectionString: testDb.url });
    await c.connect();
    try {
      await c.query('select pg_notify($1, $2)', [channel, payload]);
    } finally {
      await c.end();
    }
  }

  it('re-establishes LISTEN after the connection is cut, and the pool serves queries again', async () => {
    const received: string[] = [];
    const stop = await db.listen('faults_channel', (p) => received.push(p));
    await notifyDirect('faults_channel', 'before');
    expect(await waitFor(() => received.includes('before'), 3000)).toBe(true);

    // A transaction holding a connection when it is cut fails, without an unhandled 'error'.
    const held = db.transaction(async (tx) => {
      await tx.query('select 1');
      await sleep(300);
      await tx.query('select 2');
    });
    await sleep(100);
    await proxy.goDown();
    await expect(held).rejects.toThrow();
    await expect(db.ping()).rejects.toThrow();
    await sleep(500);
    await proxy.comeUp();

    expect(
      await waitFor(
        () =>
          db.ping().then(
            () => true,
            () => false,
          ),
        5000,
      ),
    ).toBe(true);
    // Notifications sent after recovery reach the listener again, within 5 s.
    const arrived = await waitFor(async () => {
      await notifyDirect('faults_channel', 'after');
      return received.includes('after');
    }, 5000);
    expect(arrived).toBe(true);
    expect(errors.length).toBeGreaterThan(0); // the cut was reported, not thrown

    // Stopping still works, and afterwards nothing arrives.
    await stop();
    const count = received.length;
    await notifyDirect('faults_channel', 'stopped');
    await sleep(300);
    expect(received.length).toBe(count);
  });
});
