// Runs the scheduled jobs every JOB_INTERVAL_SECONDS while the server is up (pg_cron does it when hosted).
// With several server processes on one PostgreSQL, one pass runs at a time: a process whose tick finds
// another's pass running skips its own (decision 0052). On the embedded database each pass also does
// autovacuum's work, which PGlite never runs (decision 0080).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { maintainEmbeddedDatabase } from '../db/pglite-maintenance.ts';
import { runJobsOnce } from './run-jobs.ts';

const JOBS_LOCK_KEY = 7_351_042_003;

/** Runs one pass unless another process is running one; PGlite serves one process, so it always runs. */
async function runJobsIfFree(ctx: AppContext): Promise<void> {
  if (ctx.db.kind === 'pglite') {
    await runJobsOnce(ctx);
    await maintainEmbeddedDatabase(ctx.db, ctx.log);
    return;
  }
  await ctx.db.transaction(async (lock) => {
    const { rows } = await lock.query<{ free: boolean }>('select pg_try_advisory_xact_lock($1) as free', [
      JOBS_LOCK_KEY,
    ]);
    if (rows[0]?.free) await runJobsOnce(ctx);
  });
}

export async function registerScheduler(app: FastifyInstance, ctx: AppContext): Promise<void> {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    // A pass that outlasts the interval is not overlapped by the next one.
    if (running) return;
    running = runJobsIfFree(ctx)
      .catch((err: unknown) => ctx.log.error({ err }, 'scheduled jobs failed'))
      .finally(() => {
        running = undefined;
      });
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(tick, ctx.config.JOB_INTERVAL_SECONDS * 1000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running;
  });
}
