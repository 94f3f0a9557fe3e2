// Runs the scheduled jobs every JOB_INTERVAL_SECONDS while the server is up (pg_cron does it when hosted).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { runJobsOnce } from './run-jobs.ts';

export async function registerScheduler(app: FastifyInstance, ctx: AppContext): Promise<void> {
  let running: Promise<unknown> | undefined;
  const tick = () => {
    // A pass that outlasts the interval is not overlapped by the next one.
    if (running) return;
    running = runJobsOnce(ctx)
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
