// Tells the other server processes about each batch this process's replicator committed, and hands theirs to
// this process's streams, so a change reaches every connected replica with no poll (decisions 0052, 0092).
import type { ClusterBus } from '../cluster/cluster-bus.ts';
import type { Queryable } from '../db/database.ts';
import { toStoredOp, type OpRow } from './bucket-storage.ts';
import type { BucketState, CommittedBatch, Replicator } from './replicator.ts';

/** More bucket names than this are not listed; a batch not sent whole or by its range then makes every stream re-read. */
export const MAX_RELAYED_NAMES = 200;
/** A batch whose ops serialise to more than this goes by its range (the other processes read its ops). */
export const MAX_RELAYED_BATCH_BYTES = 64 * 1024;
/** A batch touching more buckets than this goes by its names alone, or none (its states would be too long). */
export const MAX_RANGED_NAMES = 5000;
const NOTHING: BucketState = { checksum: 0, count: 0, ops: [] };

/** What a batch relayed by its range says of each bucket: its name, checksum, count and ops in the batch. */
export type RangedState = [bucket: string, checksum: number, count: number, ops: number];

/** A `sync-batch` message on the cluster bus (cluster-bus.ts names this type for it). */
export interface RelayedBatch {
  buckets: string[] | null;
  parametersChanged: boolean;
  lookups: string[] | null;
  /** A small batch, whole: each bucket's state and ops. */
  full?: { base: string; head: string; states: [string, BucketState][] };
  /** A large batch by its range: each bucket's state; the receiver reads the ops between base and head. */
  ranged?: { base: string; head: string; states: RangedState[] };
}

/** The message for a batch this process committed. */
export function describeBatch(batch: CommittedBatch): RelayedBatch {
  const names = [...batch.buckets.keys()];
  const message: RelayedBatch = {
    buckets: names.length <= MAX_RELAYED_NAMES ? names : null,
    parametersChanged: batch.parametersChanged,
    lookups: batch.lookups && batch.lookups.size <= MAX_RELAYED_NAMES ? [...batch.lookups] : null,
  };
  if (batch.base === undefined || batch.head === undefined || names.length > MAX_RANGED_NAMES) return message;
  const states = [...batch.buckets];
  const size = states.reduce(
    (n, [, st]) => n + st.ops.reduce((m, op) => m + 100 + (op.data?.length ?? 0), 0),
    0,
  );
  if (size <= MAX_RELAYED_BATCH_BYTES && names.length <= MAX_RELAYED_NAMES) {
    message.full = { base: batch.base, head: batch.head, states };
  } else {
    message.ranged = {
      base: batch.base,
      head: batch.head,
      states: states.map(([bucket, st]) => [bucket, st.checksum, st.count, st.ops.length]),
    };
  }
  return message;
}

/**
 * The batch a message describes, as this process's streams take it. A ranged batch's ops are read from the
 * database, once for every stream here; when what is read is not what the batch wrote (compaction rewrote
 * or removed some of them since), or the read fails, it is handed on by its names alone and the streams
 * holding one of them read the database, as after any gap.
 */
export async function receiveBatch(db: Queryable, m: RelayedBatch): Promise<CommittedBatch> {
  const lookups = m.lookups ? { lookups: new Set(m.lookups) } : {};
  if (m.full) {
    return {
      base: m.full.base,
      head: m.full.head,
      buckets: new Map(m.full.states),
      parametersChanged: m.parametersChanged,
      ...lookups,
    };
  }
  if (m.ranged) {
    const read = await readRange(db, m.ranged).catch(() => undefined);
    if (read)
      return {
        base: m.ranged.base,
        head: m.ranged.head,
        buckets: read,
        parametersChanged: m.parametersChanged,
        ...lookups,
      };
  }
  // A ranged batch names its buckets in its states (it has at most MAX_RANGED_NAMES).
  const names = m.buckets ?? m.ranged?.states.map((s) => s[0]) ?? null;
  // Too many to name: every stream re-resolves its buckets and reads the database.
  if (names === null)
    return { base: undefined, head: undefined, buckets: new Map(), parametersChanged: true };
  return {
    base: undefined,
    head: undefined,
    buckets: new Map(names.map((b) => [b, NOTHING])),
    parametersChanged: m.parametersChanged,
    ...lookups,
  };
}

/** The ops of a ranged batch by bucket, or undefined when they are not exactly the batch's. */
async function readRange(
  db: Queryable,
  range: NonNullable<RelayedBatch['ranged']>,
): Promise<Map<string, BucketState> | undefined> {
  const { rows } = await db.query<OpRow & { bucket: string }>(
    `select bucket, op_id::text as op_id, op, object_type, object_id, data, checksum
       from heartsync_sync.ops
      where bucket = any($1::text[]) and op_id > $2::bigint and op_id <= $3::bigint
      order by op_id`,
    [range.states.map((s) => s[0]), range.base, range.head],
  );
  const buckets = new Map<string, BucketState>();
  for (const [bucket, checksum, count] of range.states) buckets.set(bucket, { checksum, count, ops: [] });
  for (const r of rows) buckets.get(r.bucket)?.ops.push(toStoredOp(r));
  for (const [bucket, , , ops] of range.states) if (buckets.get(bucket)?.ops.length !== ops) return undefined;
  return buckets;
}

/**
 * Relays batches between this process and the others: publishes each batch this process's replicator commits,
 * and gives `deliver` the other processes' batches in the order they arrived, a ranged one once its ops are
 * read (a later one waits for it).
 */
export function relayBatches(
  ctx: { bus: ClusterBus; db: Queryable; log: { warn(msg: string): void } },
  replicator: Replicator,
  deliver: (batch: CommittedBatch) => void,
): () => void {
  if (!ctx.bus.shared) return () => {};
  let stopped = false;
  const onCommitted = (batch: CommittedBatch) => ctx.bus.publish('sync-batch', describeBatch(batch));
  replicator.on('committed', onCommitted);
  let chain: Promise<void> = Promise.resolve();
  const stop = ctx.bus.on('sync-batch', (m) => {
    chain = chain
      .then(() => receiveBatch(ctx.db, m))
      .then((batch) => {
        if (!stopped) deliver(batch);
      })
      .catch((e: Error) =>
        ctx.log.warn(`sync: a batch from another process was not passed on: ${e.message}`),
      );
  });
  return () => {
    stopped = true;
    replicator.off('committed', onCommitted);
    stop();
  };
}
