// The order in which this process's sync streams are handed committed batches (decision 0092).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BatchOrder, GAP_WAIT_MS } from './batch-order.ts';
import type { CommittedBatch } from './replicator.ts';

function batch(base: number | undefined, head: number | undefined, bucket = 'b'): CommittedBatch {
  return {
    base: base === undefined ? undefined : String(base),
    head: head === undefined ? undefined : String(head),
    buckets: new Map([[bucket, { checksum: head ?? 0, count: 1, ops: [] }]]),
    parametersChanged: false,
  };
}

describe('the order batches reach the streams in', () => {
  let order: BatchOrder;
  let out: string[];
  beforeEach(() => {
    vi.useFakeTimers();
    order = new BatchOrder();
    out = [];
    order.on('committed', (b) => out.push(`${b.base ?? '-'}..${b.head ?? '-'}`));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands out batches that follow on at once', () => {
    order.push(batch(0, 3));
    order.push(batch(3, 5));
    expect(out).toEqual(['0..3', '3..5']);
  });

  it('holds one committed after a batch still on its way, and hands both out in order when it arrives', () => {
    order.push(batch(0, 3));
    order.push(batch(5, 6)); // this process's own, committed after another process's 3..5
    order.push(batch(6, 9));
    expect(out).toEqual(['0..3']);
    order.push(batch(3, 5));
    expect(out).toEqual(['0..3', '3..5', '5..6', '6..9']);
    // Nothing left waiting: the timer was cleared.
    vi.advanceTimersByTime(GAP_WAIT_MS * 2);
    expect(out).toHaveLength(4);
  });

  it('hands held batches out after the wait when the missing one does not come, and the late one after them', () => {
    order.push(batch(0, 3));
    order.push(batch(7, 9));
    order.push(batch(5, 7));
    vi.advanceTimersByTime(GAP_WAIT_MS - 1);
    expect(out).toEqual(['0..3']);
    vi.advanceTimersByTime(1);
    expect(out).toEqual(['0..3', '5..7', '7..9']);
    // The streams put it in its place (checkpoint-state.ts); what follows 9 flows again.
    order.push(batch(3, 5));
    order.push(batch(9, 10));
    expect(out).toEqual(['0..3', '5..7', '7..9', '3..5', '9..10']);
  });

  it('passes batches without a range straight through', () => {
    order.push(batch(0, 3));
    order.push(batch(5, 6));
    order.push(batch(undefined, undefined));
    expect(out).toEqual(['0..3', '-..-']);
  });

  it('hands everything held out when stopped', () => {
    order.push(batch(0, 3));
    order.push(batch(4, 6));
    order.stop();
    expect(out).toEqual(['0..3', '4..6']);
  });
});
