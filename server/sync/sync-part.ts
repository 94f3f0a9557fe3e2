// The sync part of the server: loads the rules, runs the replicator and compaction, mounts the sync endpoints.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { compactBuckets } from './compact.ts';
import { BatchOrder } from './batch-order.ts';
import { relayBatches } from './batch-relay.ts';
import { Replicator, type CommittedBatch } from './replicator.ts';
import { loadRules, loadRulesFile, type LoadedRules } from './rules.ts';
import { registerSyncRoutes } from './sync-stream.ts';

export interface SyncPartOptions {
  /** Rules YAML text; defaults to sync-rules/sync-rules.yaml. */
  rulesYaml?: string;
  compactEveryMs?: number;
  keepaliveMs?: number;
  pollMs?: number;
  /** How long a start that failed waits before it is tried again (PostgreSQL only). */
  startRetryMs?: number;
}

const START_RETRY_MS = 30_000;

/**
 * Starts the replicator: the first copy of every table it has not copied (first start, new rules), then
 * following changes. On PostgreSQL the server answers meanwhile, so a start that fails (the database away)
 * is tried again until the server closes; on PGlite a failed start fails the server's start, as before.
 */
async function startReplicator(
  replicator: Replicator,
  ctx: AppContext,
  options: { pollMs?: number; retryMs: number; isClosing: () => boolean },
): Promise<void> {
  const started = performance.now();
  const { retryMs, isClosing, ...startOptions } = options;
  for (;;) {
    try {
      await replicator.start(startOptions);
      const seconds = (performance.now() - started) / 1000;
      if (seconds >= 1)
        ctx.log.info(`sync: tables copied in ${seconds.toFixed(1)} s; sync streams are served`);
      return;
    } catch (e) {
      // Superseded: trying again would rebuild the ops for this process's rules over the other process's.
      if (ctx.db.kind === 'pglite' || isClosing() || replicator.superseded) throw e;
      ctx.log.error(`sync could not start (${(e as Error).message}); trying again in ${retryMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
      if (isClosing()) throw e;
    }
  }
}

/** What /health says of sync: ready, or the table being copied and how far the copy is. */
export function describeSync(replicator: Replicator): {
  ready: boolean;
  superseded?: true;
  copying?: { table: string; rows_copied: number; tables_after: number };
} {
  // Another process changed the rules: this one neither replicates nor serves sync until restarted.
  if (replicator.superseded) return { ready: false, superseded: true };
  const copy = replicator.copying;
  if (replicator.ready || !copy) return { ready: replicator.ready };
  return {
    ready: false,
    copying: { table: copy.table, rows_copied: copy.rows, tables_after: copy.tablesAfter },
  };
}

export interface SyncService {
  rules: LoadedRules;
  replicator: Replicator;
  compact: () => ReturnType<typeof compactBuckets>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The running sync service, set by the sync part (tests flush and compact through it). */
    syncService?: SyncService;
  }
}

/** The running sync service of an app (tests use it to flush and compact). */
export function getSyncService(app: FastifyInstance): SyncService {
  if (!app.syncService) throw new Error('the sync part is not registered on this app');
  return app.syncService;
}

export function createSyncPart(options: SyncPartOptions = {}) {
  return async function syncPart(app: FastifyInstance, ctx: AppContext): Promise<void> {
    const rules = options.rulesYaml === undefined ? loadRulesFile() : loadRules(options.rulesYaml);
    const replicator = new Replicator(ctx.db, rules, {
      info: (m) => ctx.log.info(m),
      warn: (m) => ctx.log.warn(m),
      error: (m) => ctx.log.error(m),
    });
    let closing = false;
    const started = startReplicator(replicator, ctx, {
      ...(options.pollMs ? { pollMs: options.pollMs } : {}),
      retryMs: options.startRetryMs ?? START_RETRY_MS,
      isClosing: () => closing,
    });
    // PGlite has one connection: requests served during the copy would all queue behind it, so the server
    // answers once it is done, as before. On PostgreSQL it answers meanwhile; sync streams wait (decision 0088).
    if (ctx.db.kind === 'pglite') await started;
    else started.catch(() => {});
    // The streams take batches in head order, this process's own and the others' (decision 0092).
    const batches = new BatchOrder();
    const toStreams = (batch: CommittedBatch) => batches.push(batch);
    replicator.on('committed', toStreams);
    const stopRelay = relayBatches(ctx, replicator, toStreams);
    const closeStreams = registerSyncRoutes(app, ctx, {
      rules,
      replicator,
      batches,
      ...(options.keepaliveMs ? { keepaliveMs: options.keepaliveMs } : {}),
    });
    const compact = () => compactBuckets(ctx.db);
    app.decorate('syncService', { rules, replicator, compact });
    const timer = setInterval(
      () => {
        if (!replicator.ready) return; // the copy first
        compact().catch((e: Error) => ctx.log.error(`sync compaction failed: ${e.message}`));
      },
      options.compactEveryMs ?? 5 * 60_000,
    );
    timer.unref();
    // Open streams would hold the HTTP server open: end them before it closes.
    app.addHook('preClose', async () => {
      closing = true;
      clearInterval(timer);
      stopRelay();
      replicator.off('committed', toStreams);
      batches.stop();
      closeStreams();
    });
    app.addHook('onClose', async () => {
      await replicator.stop();
    });
  };
}

export const syncPart = createSyncPart();
