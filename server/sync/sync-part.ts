// The sync part of the server: loads the rules, runs the replicator and compaction, mounts the sync endpoints.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { compactBuckets } from './compact.ts';
import { Replicator, type BucketState, type CommittedBatch } from './replicator.ts';
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

/** More bucket names than this in one batch are not listed: the other processes' streams all re-read. */
const MAX_RELAYED_NAMES = 200;
/** A batch whose ops serialise to more than this goes by its names only (streams read it from the database). */
const MAX_RELAYED_BATCH_BYTES = 64 * 1024;
const NOTHING: BucketState = { checksum: 0, count: 0, ops: [] };

/**
 * Tells the other server processes about each batch this process's replicator committed, and hands theirs
 * to this process's streams, so a change reaches every connected replica with no poll (decision 0052). A
 * small batch travels whole, so a stream that followed every batch sends it from memory; a large one goes by
 * the names it touched, and the streams holding one of them read the database, as after any gap.
 */
function relayBatches(ctx: AppContext, replicator: Replicator): () => void {
  if (!ctx.bus.shared) return () => {};
  const relayed = new WeakSet<CommittedBatch>();
  const onCommitted = (batch: CommittedBatch) => {
    if (relayed.has(batch)) return;
    const buckets = batch.buckets.size <= MAX_RELAYED_NAMES ? [...batch.buckets.keys()] : null;
    const lookups = batch.lookups && batch.lookups.size <= MAX_RELAYED_NAMES ? [...batch.lookups] : null;
    let full: { base: string; head: string; states: [string, BucketState][] } | undefined;
    if (batch.base !== undefined && batch.head !== undefined && buckets !== null) {
      const states = [...batch.buckets];
      const size = states.reduce(
        (n, [, st]) => n + st.ops.reduce((m, op) => m + 100 + (op.data?.length ?? 0), 0),
        0,
      );
      if (size <= MAX_RELAYED_BATCH_BYTES) full = { base: batch.base, head: batch.head, states };
    }
    ctx.bus.publish('sync-batch', {
      buckets,
      parametersChanged: batch.parametersChanged,
      lookups,
      ...(full ? { full } : {}),
    });
  };
  replicator.on('committed', onCommitted);
  const stop = ctx.bus.on('sync-batch', (m) => {
    let batch: CommittedBatch;
    if (m.full) {
      batch = {
        base: m.full.base,
        head: m.full.head,
        buckets: new Map(m.full.states),
        parametersChanged: m.parametersChanged,
        ...(m.lookups ? { lookups: new Set(m.lookups) } : {}),
      };
    } else if (m.buckets === null) {
      // Too many to name: every stream re-resolves its buckets and reads the database.
      batch = { base: undefined, head: undefined, buckets: new Map(), parametersChanged: true };
    } else {
      batch = {
        base: undefined,
        head: undefined,
        buckets: new Map(m.buckets.map((b) => [b, NOTHING])),
        parametersChanged: m.parametersChanged,
        ...(m.lookups ? { lookups: new Set(m.lookups) } : {}),
      };
    }
    relayed.add(batch);
    replicator.emit('committed', batch);
  });
  return () => {
    replicator.off('committed', onCommitted);
    stop();
  };
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
    const stopRelay = relayBatches(ctx, replicator);
    const closeStreams = registerSyncRoutes(app, ctx, {
      rules,
      replicator,
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
      closeStreams();
    });
    app.addHook('onClose', async () => {
      await replicator.stop();
    });
  };
}

export const syncPart = createSyncPart();
