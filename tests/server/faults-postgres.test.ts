// PostgreSQL connection faults below the server: LISTEN survives the database going away and coming
// back (the sync replicator relies on it for prompt changes), and the pool recovers without a restart; a
// member's request while the database is away is a 503 to retry, never a 401 that signs them out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/open-postgres.ts';
import { parseConfig } from '../../server/config.ts';
import { createServer, type Server } from '../../server/create-server.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { getFreePort } from '../support/test-server.ts';

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

describe.runIf(getDatabaseKinds().includes('postgres'))('a member request while the database is away', () => {
  let testDb: TestDatabase;
  let proxy: TcpProxy;
  let server: Server;
  let url: string;
  let dataDir: string;

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    const target = new URL(testDb.url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(testDb.url!);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const db = await openPostgres(viaProxy.toString(), { max: 3, onError: () => {} });
    const port = await getFreePort();
    url = `http://127.0.0.1:${port}`;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-faults-'));
    const config = parseConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DEMO: '0',
      LOG_LEVEL: 'silent',
      DATABASE_URL: viaProxy.toString(),
    });
    server = await createServer(config, { db, skipMigrations: true, logger: false });
    await server.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await proxy?.comeUp().catch(() => {});
    await server?.close();
    await proxy?.close();
    await testDb?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is answered 503 (try again), never 401: a busy database must not sign the member out', async () => {
    const { anonKey, serviceRoleKey } = server.ctx.keys;
    const email = `away-${Date.now()}@example.test`;
    const password = 'a long enough passphrase 7';
    const created = await fetch(`${url}/auth/v1/admin/users`, {
      method: 'POST',
      headers: {
        apikey: serviceRoleKey,
        authorization: `Bearer ${serviceRoleKey}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email, password, email_confirm: true }),
    });
    expect(created.status).toBe(200);
    const signIn = await fetch(`${url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    const { access_token: token } = (await signIn.json()) as { access_token: string };
    expect(token).toBeTruthy();

    await proxy.goDown();
    const rest = await fetch(`${url}/rest/v1/profiles?select=id`, {
      headers: { apikey: anonKey, authorization: `Bearer ${token}` },
    });
    expect(rest.status).toBe(503);
    const sync = await fetch(`${url}/sync/stream`, {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(sync.status).toBe(503);
    await sync.body?.cancel();
    await proxy.comeUp();

    // Back: the same token works, the session was never ended.
    expect(
      await waitFor(
        async () =>
          (
            await fetch(`${url}/rest/v1/profiles?select=id`, {
              headers: { apikey: anonKey, authorization: `Bearer ${token}` },
            })
          ).status === 200,
        10_000,
      ),
    ).toBe(true);
  }, 60_000);
});
