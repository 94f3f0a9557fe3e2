// The sync part of the server: loads the rules, runs the replicator and compaction, mounts the sync endpoints.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { compactBuckets } from './compact.ts';
import { Replicator } from './replicator.ts';
import { loadRules, loadRulesFile, type LoadedRules } from './rules.ts';
import { registerSyncRoutes } from './sync-stream.ts';

export interface SyncPartOptions {
  /** Rules YAML text; defaults to sync-rules/sync-rules.yaml. */
  rulesYaml?: string;
  compactEveryMs?: number;
  keepaliveMs?: number;
  pollMs?: number;
}

export interface SyncService {
  rules: LoadedRules;
  replicator: Replicator;
  compact: () => ReturnType<typeof compactBuckets>;
}

const services = new WeakMap<FastifyInstance, SyncService>();

/** The running sync service of an app (tests use it to flush and compact). */
export function getSyncService(app: FastifyInstance): SyncService {
  const s = services.get(app);
  if (!s) throw new Error('the sync part is not registered on this app');
  return s;
}

export function createSyncPart(options: SyncPartOptions = {}) {
  return async function syncPart(app: FastifyInstance, ctx: AppContext): Promise<void> {
    const rules = options.rulesYaml === undefined ? loadRulesFile() : loadRules(options.rulesYaml);
    const replicator = new Replicator(ctx.db, rules, {
      warn: (m) => ctx.log.warn(m),
      error: (m) => ctx.log.error(m),
    });
    await replicator.start({ ...(options.pollMs ? { pollMs: options.pollMs } : {}) });
    const closeStreams = registerSyncRoutes(app, ctx, {
      rules,
      replicator,
      ...(options.keepaliveMs ? { keepaliveMs: options.keepaliveMs } : {}),
    });
    const compact = () => compactBuckets(ctx.db);
    services.set(app, { rules, replicator, compact });
    const timer = setInterval(
      () => {
        compact().catch((e: Error) => ctx.log.error(`sync compaction failed: ${e.message}`));
      },
      options.compactEveryMs ?? 5 * 60_000,
    );
    timer.unref();
    // Open streams would hold the HTTP server open: end them before it closes.
    app.addHook('preClose', async () => {
      clearInterval(timer);
      closeStreams();
    });
    app.addHook('onClose', async () => {
      await replicator.stop();
    });
  };
}

export const syncPart = createSyncPart();
