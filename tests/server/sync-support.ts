// Helpers for the sync tests: a server running only the sync part with given rules (restartable over the
// same database), and real @powersync/node clients in temporary folders.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  PowerSyncDatabase,
  SyncStreamConnectionMethod,
  type AbstractPowerSyncDatabase,
  type PowerSyncBackendConnector,
  type PowerSyncLogger,
  type Schema,
} from '@powersync/node';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadOrCreateKeys } from '../../server/auth/keys.ts';
import { parseConfig } from '../../server/config.ts';
import { ServerEventBus, type AppContext } from '../../server/context.ts';
import { createLocalBus } from '../../server/cluster/cluster-bus.ts';
import { createSyncPart, getSyncService, type SyncService } from '../../server/sync/sync-part.ts';
import { createTestDatabase, type DbKind, type TestDatabase } from '../support/test-databases.ts';
import { getFreePort } from '../support/test-server.ts';

export interface SyncTestServer {
  url: string;
  db: TestDatabase;
  ctx: AppContext;
  app: FastifyInstance;
  sync: SyncService;
  /** Bodies of the /sync/stream requests received, oldest first. */
  streamRequests: { buckets?: { name: string; after: string }[] }[];
  signToken(sub: string, expiresInSeconds?: number): Promise<string>;
  /** Stops the HTTP server and the sync part, keeping the database; start() brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startSyncServer(
  kind: DbKind,
  options: {
    rulesYaml?: string;
    setupSql?: string;
    keepaliveMs?: number;
    pollMs?: number;
    /** Another server's database (a second process on it); close() then leaves it to that server. */
    db?: TestDatabase;
    /** How long a failed start of the sync service waits before it is tried again (PostgreSQL). */
    startRetryMs?: number;
    /** False: start() resolves once the server listens, before the sync service's copy ends. */
    waitForCopy?: boolean;
    /** More routes on the same server (the sync bench's upload endpoint). */
    parts?: ((app: FastifyInstance, ctx: AppContext) => Promise<void>)[];
  } = {},
): Promise<SyncTestServer> {
  const db = options.db ?? (await createTestDatabase(kind));
  if (options.setupSql) await db.exec(options.setupSql);
  const port = await getFreePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-sync-test-'));
  const url = `http://127.0.0.1:${port}`;
  const config = parseConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    DEMO: '0',
    LOG_LEVEL: 'silent',
  });
  const keys = await loadOrCreateKeys(dataDir, `${url}/auth/v1`);
  const events = new ServerEventBus();
  const part = createSyncPart({
    ...(options.rulesYaml !== undefined ? { rulesYaml: options.rulesYaml } : {}),
    ...(options.keepaliveMs ? { keepaliveMs: options.keepaliveMs } : {}),
    pollMs: options.pollMs ?? 200,
    ...(options.startRetryMs ? { startRetryMs: options.startRetryMs } : {}),
  });
  const self = { streamRequests: [] } as unknown as SyncTestServer;
  const recordRequests = async (app: FastifyInstance) => {
    app.addHook('preHandler', async (request) => {
      if (request.url === '/sync/stream') self.streamRequests.push(request.body as never);
    });
  };
  async function start() {
    const built = await buildApp(
      { config, db, keys, events, bus: createLocalBus() },
      [recordRequests, part, ...(options.parts ?? [])],
      {
        logger: false,
      },
    );
    await built.app.listen({ port, host: '127.0.0.1' });
    Object.assign(self, { app: built.app, ctx: built.ctx, sync: getSyncService(built.app) });
    // On PostgreSQL the server answers while the tables are copied (decision 0088); tests start from a
    // service that follows changes, unless they ask otherwise.
    if (options.waitForCopy !== false) await self.sync.replicator.whenReady();
  }
  Object.assign(self, {
    url,
    db,
    signToken: (sub: string, expiresInSeconds = 3600) =>
      keys.sign(
        { role: 'authenticated', sub, email: `${sub}@example.test`, aud: 'authenticated' } as never,
        expiresInSeconds,
      ),
    stop: () => self.app.close(),
    start,
    async close() {
      await self.app.close().catch(() => {});
      if (!options.db) await db.destroy();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  });
  await start();
  return self;
}

export interface SyncClient {
  db: AbstractPowerSyncDatabase;
  /** Connects again (after db.disconnect(), e.g. to simulate going offline) with the same connector. */
  reconnect(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The SDK's SQLite workers (one writer, five readers) start as plain Node, without the flags of the process
 * that opens them: under tsx (the benchmarks) each worker otherwise loads its JavaScript through tsx's
 * loader too, which about doubled the SDK's opening (350-440 ms in plain Node, 735-940 ms under tsx). A
 * device runs the SDK as plain JavaScript; the worker's own file needs no loader.
 */
export const plainSdkWorkers = {
  openWorker: (...[file, options]: ConstructorParameters<typeof Worker>) =>
    new Worker(file, { ...options, execArgv: [] }),
};

/** A @powersync/node database in a temp folder, connected over HTTP streaming with the given token. */
export async function openSyncClient(
  server: { url: string },
  schema: Schema,
  getToken: () => Promise<string>,
  uploadData: PowerSyncBackendConnector['uploadData'] = async () => {},
  options: { logger?: PowerSyncLogger } = {},
): Promise<SyncClient> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-sync-client-'));
  const db = new PowerSyncDatabase({
    schema,
    // Locks are named after the file, so each client in this process needs its own name.
    database: { dbFilename: `${path.basename(dir)}.db`, dbLocation: dir, ...plainSdkWorkers },
    logger: options.logger ?? (silentLogger as never),
  });
  await db.init();
  const connect = () =>
    db.connect(
      {
        fetchCredentials: async () => ({ endpoint: server.url, token: await getToken() }),
        uploadData,
      },
      { connectionMethod: SyncStreamConnectionMethod.HTTP, retryDelayMs: 200, crudUploadThrottleMs: 10 },
    );
  await connect();
  return {
    db,
    reconnect: connect,
    async close() {
      await db.disconnect().catch(() => {});
      await db.close().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const noop = () => {};
const silentLogger = {
  debug: noop,
  info: noop,
  log: noop,
  warn: noop,
  error: noop,
  trace: noop,
  time: noop,
  timeEnd: noop,
  setLevel: noop,
  getLevel: () => 0,
  enabledFor: () => false,
  get: () => silentLogger,
};

/** Polls until fn returns a value that passes `until`, or throws after timeoutMs with the last value. */
export async function waitFor<T>(
  fn: () => Promise<T>,
  until: (v: T) => boolean,
  timeoutMs = 10_000,
  intervalMs = 5,
): Promise<T> {
  const started = Date.now();
  let last: T = await fn();
  while (!until(last)) {
    if (Date.now() - started > timeoutMs) {
      throw new Error(`timed out after ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
    last = await fn();
  }
  return last;
}
