import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../server/config.ts';
import { createServer, type Server } from '../../server/create-server.ts';
import type { Database } from '../../server/db/database.ts';
import { openPostgres } from '../../server/db/open-postgres.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { getFreePort, startTestServer, type TestServer } from '../support/test-server.ts';

async function expectUnavailable(url: string, apikey: string) {
  for (const [p, method] of [
    ['rest_tags?select=*', 'GET'],
    ['rest_tags', 'POST'],
    ['rpc/anything', 'POST'],
  ] as const) {
    const res = await fetch(`${url}/rest/v1/${p}`, {
      method,
      headers: { apikey, 'content-type': 'application/json' },
      ...(method === 'POST' ? { body: '{"name":"x"}' } : {}),
    });
    expect(res.status, p).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'PGRST001' });
  }
}

describe('REST when PGlite has gone away', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('pglite');
    await t.db.exec(`create table public.rest_tags (name text primary key)`);
    const ok = await fetch(`${t.url}/rest/v1/rest_tags`, { headers: { apikey: t.anonKey } });
    expect(ok.status).toBe(200);
    await t.db.close();
  });
  afterAll(async () => {
    await t?.server.close().catch(() => {});
    fs.rmSync(t.dataDir, { recursive: true, force: true });
  });

  it('answers 503 in PostgREST shape, never 500, for reads, writes and rpc', async () => {
    await expectUnavailable(t.url, t.anonKey);
  });
});

// PostgreSQL behind a TCP relay the test can cut, as when the database host goes down.
describe.runIf(getDatabaseKinds().includes('postgres'))('REST when PostgreSQL goes down', () => {
  let testDb: TestDatabase;
  let proxied: Database;
  let relay: net.Server;
  const sockets = new Set<net.Socket>();
  let server: Server;
  let url: string;
  let dataDir: string;

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    await testDb.exec(`create table public.rest_tags (name text primary key)`);
    const target = new URL(testDb.url!);
    relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    const relayPort = await getFreePort();
    await new Promise<void>((resolve) => relay.listen(relayPort, '127.0.0.1', resolve));
    const viaRelay = new URL(testDb.url!);
    viaRelay.host = `127.0.0.1:${relayPort}`;
    proxied = await openPostgres(viaRelay.toString(), { max: 3 });
    const port = await getFreePort();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-rest-down-'));
    url = `http://127.0.0.1:${port}`;
    const config = parseConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DEMO: '0',
      LOG_LEVEL: 'silent',
    });
    server = await createServer(config, { db: proxied, skipMigrations: true, logger: false });
    await server.app.listen({ port, host: '127.0.0.1' });
    const ok = await fetch(`${url}/rest/v1/rest_tags`, { headers: { apikey: server.ctx.keys.anonKey } });
    expect(ok.status).toBe(200);
    // Down: refuse new connections and cut the open ones.
    relay.close();
    for (const s of sockets) s.destroy();
  });
  afterAll(async () => {
    await server?.close().catch(() => {});
    await proxied?.close().catch(() => {});
    await testDb?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 in PostgREST shape, never 500, for reads, writes and rpc', async () => {
    await expectUnavailable(url, server.ctx.keys.anonKey);
  });
});
