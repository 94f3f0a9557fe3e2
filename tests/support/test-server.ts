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
  const port = await getFreePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-server-test-'));
  const url = `http://127.0.0.1:${port}`;
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
  await server.app.listen({ port, host: '127.0.0.1' });
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
