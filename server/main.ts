// Entry point of `npm start`: one process (or WORKERS processes on PostgreSQL) on one port, graceful
// shutdown on SIGTERM and SIGINT.
import cluster from 'node:cluster';
import fs from 'node:fs';
import { parseConfig, type Config } from './config.ts';
import { createServer } from './create-server.ts';
import { seedDemoCommunity } from './demo/seed-demo.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open-database.ts';
import { loadOrCreateKeys } from './auth/keys.ts';

function readConfig(): Config {
  // A .env beside package.json (copied from .env.example) is read first; the real environment wins.
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  try {
    return parseConfig();
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}

/** One serving process: the whole server on the port (shared with its siblings under WORKERS). */
async function serve(config: Config, options: { seed: boolean; banner: boolean }) {
  // DIST_DIR lets parallel test runs serve their own build; npm start uses dist/.
  const server = await createServer(
    config,
    process.env['DIST_DIR'] ? { distDir: process.env['DIST_DIR'] } : {},
  );
  const { app, ctx } = server;
  // After migrations, before serving: seeds only an empty database, and never in production unless DEMO=1.
  const demo =
    options.seed && config.demo ? await seedDemoCommunity(ctx.db, { dataDir: config.dataDir }) : undefined;
  await app.listen({ port: config.PORT, host: config.HOST });
  const where = config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  app.log.info(`HeartSync is running on ${config.publicUrl} with ${where}`);
  if (options.banner) {
    console.log(
      `\n  HeartSync: ${config.publicUrl}\n  database: ${where}\n  anon key: ${ctx.keys.anonKey}\n`,
    );
    if (demo?.email)
      console.log(
        `  demo community${demo.seeded ? ` seeded (${demo.members} members)` : ''}: sign in as ${demo.email}` +
          (demo.password ? ` with password ${demo.password}\n` : '\n'),
      );
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received, shutting down`);
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    try {
      await server.close();
      process.exit(0);
    } catch (e) {
      app.log.error(e);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/**
 * WORKERS > 1: this process migrates, makes the keys and seeds once, then forks the workers, which share
 * the port (the kernel spreads connections) and talk through PostgreSQL (decision 0052). A worker that
 * dies is replaced; SIGTERM stops them all.
 */
async function runPrimary(config: Config) {
  const db = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir }, (e) =>
    console.error(`database connection error: ${e.message}`),
  );
  try {
    await migrate(db, { log: (m) => console.log(m) });
    await loadOrCreateKeys(config.dataDir, `${config.publicUrl}/auth/v1`);
    const demo = config.demo ? await seedDemoCommunity(db, { dataDir: config.dataDir }) : undefined;
    if (demo?.email)
      console.log(
        `  demo community${demo.seeded ? ` seeded (${demo.members} members)` : ''}: sign in as ${demo.email}` +
          (demo.password ? ` with password ${demo.password}` : ''),
      );
  } finally {
    await db.close();
  }
  let stopping = false;
  const fork = () => cluster.fork({ HEARTSYNC_WORKER: '1' });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    fork();
  });
  for (let i = 0; i < config.WORKERS; i++) fork();
  console.log(`\n  HeartSync: ${config.publicUrl}\n  ${config.WORKERS} worker processes on PostgreSQL\n`);
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    setTimeout(() => process.exit(1), 15_000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function main() {
  const config = readConfig();
  if (config.WORKERS > 1 && !config.DATABASE_URL) {
    console.error(
      'WORKERS > 1 needs DATABASE_URL: the embedded database (PGlite) serves one process. ' +
        'Set DATABASE_URL to a PostgreSQL server to run several.',
    );
    process.exit(1);
  }
  if (config.WORKERS > 1 && cluster.isPrimary) return runPrimary(config);
  // A worker: the primary already migrated and seeded.
  const worker = process.env['HEARTSYNC_WORKER'] === '1';
  return serve(config, { seed: !worker, banner: !worker });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
