// Entry point of `npm start`: one process, one port, graceful shutdown on SIGTERM and SIGINT.
import fs from 'node:fs';
import { parseConfig } from './config.ts';
import { createServer } from './create-server.ts';
import { seedDemoCommunity } from './demo/seed-demo.ts';

async function main() {
  // A .env beside package.json (copied from .env.example) is read first; the real environment wins.
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  let config;
  try {
    config = parseConfig();
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
  // DIST_DIR lets parallel test runs serve their own build; npm start uses dist/.
  const server = await createServer(
    config,
    process.env['DIST_DIR'] ? { distDir: process.env['DIST_DIR'] } : {},
  );
  const { app, ctx } = server;
  // After migrations, before serving: seeds only an empty database, and never in production unless DEMO=1.
  const demo = config.demo ? await seedDemoCommunity(ctx.db, { dataDir: config.dataDir }) : undefined;
  await app.listen({ port: config.PORT, host: config.HOST });
  const where = config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  app.log.info(`HeartSync is running on ${config.publicUrl} with ${where}`);
  console.log(`\n  HeartSync: ${config.publicUrl}\n  database: ${where}\n  anon key: ${ctx.keys.anonKey}\n`);
  if (demo?.email)
    console.log(
      `  demo community${demo.seeded ? ` seeded (${demo.members} members)` : ''}: sign in as ${demo.email}` +
        (demo.password ? ` with password ${demo.password}\n` : '\n'),
    );

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

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
