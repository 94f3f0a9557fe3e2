// What one sync stream has sent and what it owes next, without I/O (issue 14): the buckets it syncs, each
// bucket's position, the checksums and write checkpoint of its last checkpoint, and the batches committed
// since. sync-stream.ts is the transport around it: it reads the database when this says so and writes the
// lines this builds. The PowerSync service separates them the same way (its checkpoint state and its stream).
import type { BucketChecksum, StoredOp } from './bucket-storage.ts';
import type { BucketState, CommittedBatch } from './replicator.ts';

/** Ops per `data` line. */
export const OPS_PER_LINE = 1000;
/** The priority of a bucket the rules give none. */
export const DEFAULT_PRIORITY = 3;
/** Batches a stream keeps to send from memory; past this it reads the database once instead. */
export const MAX_FOLLOWED = 1000;

/** A bucket the rules give this stream (a ResolvedBucket of @powersync/service-sync-rules, as far as read). */
export interface StreamBucket {
  bucket: string;
  priority: number;
}

/** A run of batches a stream followed: the head before and after, and what they did to its buckets. */
interface Followed {
  base: bigint;
  head: bigint;
  buckets: Map<string, BucketState>;
}

/** The checkpoint line of a checkpoint read from the database, and the buckets whose ops follow it. */
export interface ReadPlan {
  line: unknown;
  toSend: string[];
}

export class StreamCheckpointState {
  /** The buckets this stream syncs (as last resolved) and the parameter lookups that decided them. */
  private buckets: StreamBucket[] = [];
  private lookups = new Set<string>();
  /** The buckets batches are filtered by: those of the last checkpoint read. */
  private streamBuckets = new Set<string>();
  /** The buckets of the checkpoint being read. */
  private readNames: string[] = [];
  /** Per bucket, the op id the client has everything up to. */
  private readonly positions: Map<string, string>;
  private sent = new Map<string, BucketChecksum>();
  private sentWriteCheckpoint: string | undefined;
  private writeCheckpoint: string | undefined;
  /** The last checkpoint's op id: every op of the stream's buckets up to it has been sent. */
  private sentHead: bigint | undefined;
  /**
   * Batches committed since, in commit order, holding only this stream's buckets. While they follow on from
   * sentHead without a gap, the next checkpoint is sent from them with no database read (with many streams
   * open that is most of the work of a change on PGlite's one connection).
   */
  private followed: Followed[] = [];
  private followBroken = false;
  /** The newest write checkpoint made for this stream's client since the last one sent, if any. */
  private madeWriteCheckpoint: string | undefined;
  private first = true;
  /** Bucket sets and write checkpoints are re-read only when something they depend on changed. */
  private resolveNeeded = true;
  /**
   * While the bucket set is being resolved (takeResolve to setBuckets, database reads in between): the lookups
   * that batches committed meanwhile changed, null when one did not say which. The resolve may have read before
   * those batches, and the lookups it uses are not known until it ends: setBuckets checks them then.
   */
  private changedWhileResolving: Set<string> | null | undefined;
  private writeCheckpointReadNeeded = true;

  constructor(
    private readonly clientId: string,
    positions: Iterable<readonly [string, string]>,
  ) {
    this.positions = new Map(positions);
  }

  /** A batch committed: followed for the next checkpoint; true when it concerns this stream. */
  committed(batch: CommittedBatch): boolean {
    this.follow(batch);
    if (batch.parametersChanged && this.changedWhileResolving !== undefined) {
      if (batch.lookups === undefined || this.changedWhileResolving === null)
        this.changedWhileResolving = null;
      else for (const l of batch.lookups) this.changedWhileResolving.add(l);
      // Whether it concerns this stream is known once the resolve ends; until then, wake it to find out.
      return true;
    }
    if (batch.parametersChanged) {
      const mine = batch.lookups === undefined || [...batch.lookups].some((l) => this.lookups.has(l));
      if (mine) {
        this.resolveNeeded = true;
        return true;
      }
    }
    for (const b of batch.buckets.keys()) if (this.streamBuckets.has(b)) return true;
    return false;
  }

  /** A write checkpoint was made for a client of this member; true when it is this stream's client's. */
  writeCheckpointMade(forClient: string, checkpoint: string): boolean {
    if (!this.clientId || forClient !== this.clientId) return false;
    if (this.madeWriteCheckpoint === undefined || BigInt(checkpoint) > BigInt(this.madeWriteCheckpoint))
      this.madeWriteCheckpoint = checkpoint;
    this.writeCheckpointReadNeeded = true;
    return true;
  }

  private follow(batch: CommittedBatch): void {
    if (this.followBroken) return;
    if (batch.base === undefined || batch.head === undefined || this.followed.length >= MAX_FOLLOWED) {
      this.followBroken = true;
      this.followed = [];
      return;
    }
    const base = BigInt(batch.base);
    const head = BigInt(batch.head);
    // Older than the last checkpoint (it arrived from another process after a later one, which the stream read
    // from the database): already sent.
    if (this.sentHead !== undefined && head <= this.sentHead) return;
    const buckets = new Map<string, BucketState>();
    for (const [b, state] of batch.buckets) if (this.streamBuckets.has(b)) buckets.set(b, state);
    const last = this.followed.at(-1);
    if (last && last.head > base) {
      // Late (batches of several processes may arrive out of order): in its place, so the run has no gap.
      const at = this.followed.findIndex((f) => f.base > base);
      this.followed.splice(at === -1 ? this.followed.length : at, 0, { base, head, buckets });
    } else if (last && last.buckets.size === 0 && buckets.size === 0 && last.head === base) {
      // Runs of batches that touch none of the stream's buckets fold into one entry.
      last.head = head;
    } else {
      this.followed.push({ base, head, buckets });
    }
  }

  private priorityOf(): (bucket: string) => number {
    const priorities = new Map(this.buckets.map((b) => [b.bucket, b.priority]));
    return (bucket) => priorities.get(bucket) ?? DEFAULT_PRIORITY;
  }

  /**
   * The next checkpoint from the batches followed since the last one, when nothing else changed and none is
   * missing: the text to write (diff, data lines and completion, in one write so the client gets one chunk),
   * `null` when there is nothing to send, or `undefined` when the database must be read. A write checkpoint
   * made meanwhile goes with the batches once they reach it (it was the head when made, and this process's
   * batches up to it were all followed).
   */
  fromMemory(): string | null | undefined {
    if (
      this.first ||
      this.resolveNeeded ||
      (this.writeCheckpointReadNeeded && this.madeWriteCheckpoint === undefined) ||
      this.sentHead === undefined ||
      this.followBroken
    )
      return undefined;
    const sentHead = this.sentHead;
    const run = this.followed.filter((f) => f.head > sentHead);
    const gapless = run.every((f, i) => f.base === (i === 0 ? sentHead : run[i - 1]?.head));
    const reached = run.at(-1)?.head ?? sentHead;
    if (!gapless || (this.madeWriteCheckpoint !== undefined && BigInt(this.madeWriteCheckpoint) > reached))
      return undefined;
    this.followed = [];
    if (this.madeWriteCheckpoint !== undefined) {
      this.writeCheckpoint = this.madeWriteCheckpoint;
      this.madeWriteCheckpoint = undefined;
      this.writeCheckpointReadNeeded = false;
    }
    if (run.length === 0 && this.writeCheckpoint === this.sentWriteCheckpoint) return null;
    const touched = new Map<string, { state: BucketState; ops: StoredOp[] }>();
    for (const f of run) {
      for (const [bucket, state] of f.buckets) {
        const t = touched.get(bucket) ?? { state, ops: [] };
        t.state = state;
        t.ops.push(...state.ops);
        touched.set(bucket, t);
      }
    }
    const head = String(reached);
    this.sentHead = reached;
    if (touched.size === 0 && this.writeCheckpoint === this.sentWriteCheckpoint) return null;
    const priority = this.priorityOf();
    const lines = [
      JSON.stringify({
        checkpoint_diff: {
          last_op_id: head,
          updated_buckets: [...touched].map(([bucket, t]) => ({
            bucket,
            checksum: t.state.checksum,
            priority: priority(bucket),
            count: t.state.count,
          })),
          removed_buckets: [],
          ...(this.writeCheckpoint ? { write_checkpoint: this.writeCheckpoint } : {}),
        },
      }),
    ];
    for (const [bucket, t] of touched) {
      let after = this.position(bucket);
      for (let i = 0; i < t.ops.length; i += OPS_PER_LINE) {
        const page = t.ops.slice(i, i + OPS_PER_LINE);
        const next = page.at(-1)?.op_id ?? after;
        lines.push(
          JSON.stringify({
            data: { bucket, after, next_after: next, has_more: i + OPS_PER_LINE < t.ops.length, data: page },
          }),
        );
        after = next;
      }
      this.positions.set(bucket, after);
      this.sent.set(bucket, { bucket, checksum: t.state.checksum, count: t.state.count });
    }
    lines.push(JSON.stringify({ checkpoint_complete: { last_op_id: head } }));
    this.sentWriteCheckpoint = this.writeCheckpoint;
    return `${lines.join('\n')}\n`;
  }

  /** Whether the bucket set must be resolved again before the next read; asking clears it. */
  takeResolve(): boolean {
    const needed = this.resolveNeeded;
    this.resolveNeeded = false;
    if (needed) this.changedWhileResolving = new Set();
    return needed;
  }

  /** The bucket set as resolved, and the parameter lookups it used. */
  setBuckets(buckets: StreamBucket[], lookups: Set<string>): void {
    this.buckets = buckets;
    this.lookups = lookups;
    const changed = this.changedWhileResolving;
    this.changedWhileResolving = undefined;
    // A lookup this set was resolved from changed while it was read (the first resolve of a stream opened as a
    // like arrives, say): the set may predate it, so it is resolved again before the next checkpoint.
    if (changed === null || (changed && [...changed].some((l) => lookups.has(l)))) this.resolveNeeded = true;
  }

  /** The buckets to read a checkpoint of; batches from here on are filtered by them. */
  bucketsToRead(): string[] {
    this.readNames = this.buckets.map((b) => b.bucket);
    this.streamBuckets = new Set(this.readNames);
    return this.readNames;
  }

  /** Whether the client's write checkpoint must be read again; asking clears it and what was made meanwhile. */
  takeWriteCheckpointRead(): boolean {
    const needed = this.writeCheckpointReadNeeded;
    if (needed) {
      this.writeCheckpointReadNeeded = false;
      this.madeWriteCheckpoint = undefined;
    }
    return needed;
  }

  setWriteCheckpoint(checkpoint: string | undefined): void {
    this.writeCheckpoint = checkpoint;
  }

  /**
   * A checkpoint read from the database: its line and the buckets whose ops follow, or `undefined` when it
   * holds nothing new. The read holds every batch up to `head`; later ones are followed from it.
   */
  planFromRead(head: string, checksums: Map<string, BucketChecksum>): ReadPlan | undefined {
    const sentHead = BigInt(head);
    this.sentHead = sentHead;
    this.followed = this.followed.filter((f) => f.head > sentHead);
    this.followBroken = false;
    const priority = this.priorityOf();
    const describe = (c: BucketChecksum) => ({
      bucket: c.bucket,
      checksum: c.checksum,
      priority: priority(c.bucket),
      count: c.count,
    });
    const writeCheckpoint = this.writeCheckpoint ? { write_checkpoint: this.writeCheckpoint } : {};
    if (this.first) {
      return {
        line: {
          checkpoint: {
            last_op_id: head,
            buckets: [...checksums.values()].map(describe),
            ...writeCheckpoint,
          },
        },
        toSend: this.readNames,
      };
    }
    const updated = [...checksums.values()].filter((c) => {
      const before = this.sent.get(c.bucket);
      return !before || before.checksum !== c.checksum || before.count !== c.count;
    });
    const removed = [...this.sent.keys()].filter((b) => !checksums.has(b));
    if (updated.length === 0 && removed.length === 0 && this.writeCheckpoint === this.sentWriteCheckpoint)
      return undefined;
    for (const b of removed) this.positions.delete(b);
    return {
      line: {
        checkpoint_diff: {
          last_op_id: head,
          updated_buckets: updated.map(describe),
          removed_buckets: removed,
          ...writeCheckpoint,
        },
      },
      toSend: updated.map((c) => c.bucket),
    };
  }

  /** The op id the client has every op of this bucket up to ('0' for none). */
  position(bucket: string): string {
    return this.positions.get(bucket) ?? '0';
  }

  setPosition(bucket: string, after: string): void {
    this.positions.set(bucket, after);
  }

  /** A checkpoint read from the database was sent whole. */
  completed(checksums: Map<string, BucketChecksum>): void {
    this.sent = checksums;
    this.sentWriteCheckpoint = this.writeCheckpoint;
    this.first = false;
  }
}
