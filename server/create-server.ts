// Opens the database, applies migrations, loads keys and builds the app: used by main.ts and by tests.
import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from './app.ts';
import type { Config } from './config.ts';
import { ServerEventBus, type AppContext } from './context.ts';
import type { Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open-database.ts';
import { loadOrCreateKeys } from './auth/keys.ts';
import { connectProcesses } from './cluster/connect-processes.ts';
import { parts as defaultParts } from './parts.ts';

export interface Server {
  app: FastifyInstance;
  ctx: AppContext;
  /** Stops accepting requests, closes sockets and the database. */
  close(): Promise<void>;
}

export async function createServer(
  config: Config,
  options: BuildAppOptions & { db?: Database; skipMigrations?: boolean } = {},
): Promise<Server> {
  const onDbError = (e: Error) => console.error(`database connection error: ${e.message}`);
  const db =
    options.db ??
    (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir }, onDbError));
  try {
    if (!options.skipMigrations) await migrate(db, { log: (m) => console.log(m) });
    const keys = await loadOrCreateKeys(config.dataDir, `${config.publicUrl}/auth/v1`);
    const events = new ServerEventBus();
    const bus = await connectProcesses(db, events, { warn: (m) => console.warn(m) });
    let built;
    try {
      built = await buildApp({ config, db, keys, events, bus }, defaultParts, options);
    } catch (e) {
      await bus.close().catch(() => {});
      throw e;
    }
    const { app, ctx } = built;
    return {
      app,
      ctx,
      async close() {
        await app.close();
        await bus.close();
        if (!options.db) await db.close();
      },
    };
  } catch (e) {
    if (!options.db) await db.close().catch(() => {});
    throw e;
  }
}
