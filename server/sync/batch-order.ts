// Hands this process's sync streams every committed batch, its own replicator's and those relayed from the
// other processes, in the order of their heads (decision 0092). With several processes on one PostgreSQL their
// replicators take turns, so this process's next batch often commits before the other's batch before it has
// arrived through the bus; a stream given it then sees a gap and reads the database instead of sending the
// batches from memory. A batch that does not follow on from the last one handed out is held until the
// missing one arrives, for at most `waitMs`; then the held ones go out as they are (the streams read the
// database, as they did for every gap before). No I/O: a timer is all it keeps.
import { EventEmitter } from 'node:events';
import type { CommittedBatch } from './replicator.ts';

/** How long a batch waits for the one before it to arrive from another process. */
export const GAP_WAIT_MS = 1000;

export class BatchOrder extends EventEmitter<{ committed: [CommittedBatch] }> {
  /** The head of the last batch handed out that the streams can follow; undefined until the first. */
  private lastHead: bigint | undefined;
  /** Batches held for a gap before them, by the head they start from. */
  private readonly held = new Map<bigint, CommittedBatch>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly waitMs = GAP_WAIT_MS) {
    super();
    // One listener per open sync stream.
    this.setMaxListeners(0);
  }

  /** A batch committed here or relayed from another process. */
  push(batch: CommittedBatch): void {
    if (batch.base === undefined || batch.head === undefined) {
      // Not followable (a table's copy, a batch relayed by its names): the streams read the database.
      this.emit('committed', batch);
      return;
    }
    const base = BigInt(batch.base);
    const head = BigInt(batch.head);
    if (this.lastHead === undefined || base === this.lastHead) {
      this.handOut(batch, head);
      this.handOutFollowing();
    } else if (head <= this.lastHead) {
      // It arrived after the wait for it ended: the streams put it in its place among the later ones (those
      // that read the database meanwhile have it already).
      this.emit('committed', batch);
    } else {
      this.held.set(base, batch);
      this.timer ??= setTimeout(() => this.release(), this.waitMs).unref();
    }
  }

  /** Hands out what is held at once (the server is closing). */
  stop(): void {
    this.release();
  }

  private handOut(batch: CommittedBatch, head: bigint): void {
    this.lastHead = head;
    this.emit('committed', batch);
  }

  private handOutFollowing(): void {
    for (;;) {
      const next = this.lastHead === undefined ? undefined : this.held.get(this.lastHead);
      if (!next) break;
      this.held.delete(this.lastHead!);
      this.handOut(next, BigInt(next.head!));
    }
    if (this.held.size === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** The wait ended: the held batches go out in order, the first one after a gap. */
  private release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const held = [...this.held.values()].sort((a, b) => (BigInt(a.base!) < BigInt(b.base!) ? -1 : 1));
    this.held.clear();
    for (const batch of held) {
      const head = BigInt(batch.head!);
      if (this.lastHead === undefined || head > this.lastHead) this.lastHead = head;
      this.emit('committed', batch);
    }
  }
}
