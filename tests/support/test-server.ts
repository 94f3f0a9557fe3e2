// Starts the real server on a free loopback port over a fresh test database, for tests/server.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../server/config.ts';
import { createServer, type Server } from '../../server/create-server.ts';
import { createTestDatabase, type DbKind, type TestDatabase } from './test-databases.ts';

export interface TestServer {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  server: Server;
  db: TestDatabase;
  dataDir: string;
  close(): Promise<void>;
}

export async function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** env overrides are applied on top of a quiet test configuration. */
export async function startTestServer(kind: DbKind, env: Record<string, string> = {}): Promise<TestServer> {
  const db = await createTestDatabase(kind);
  // The URL is part of the configuration (token issuer, links), so the port is probed before listening;
  // another process may take it in between, which is a busy machine, not a failure: probe again.
  for (let attempt = 1; ; attempt++) {
    const port = await getFreePort();
    const url = `http://127.0.0.1:${port}`;
    // A fresh folder per attempt: the keys made in it carry the URL as their issuer.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-server-test-'));
    const config = parseConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DEMO: '0',
      OUTBOX: '1',
      LOG_LEVEL: 'silent',
      ...env,
    });
    const server = await createServer(config, { db, skipMigrations: true, logger: false });
    try {
      await server.app.listen({ port, host: '127.0.0.1' });
    } catch (e) {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
      await db.destroy();
      throw e;
    }
    // On PostgreSQL the server answers while the sync service copies the tables (decision 0088); tests
    // start from a service that follows changes.
    await server.app.syncService?.replicator.whenReady();
    return makeTestServer(url, server, db, dataDir);
  }
}

function makeTestServer(url: string, server: Server, db: TestDatabase, dataDir: string): TestServer {
  return {
    url,
    anonKey: server.ctx.keys.anonKey,
    serviceRoleKey: server.ctx.keys.serviceRoleKey,
    server,
    db,
    dataDir,
    async close() {
      await server.close();
      await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
