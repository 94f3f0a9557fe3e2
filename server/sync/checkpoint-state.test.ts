// The sync stream's checkpoint state on its own: what it sends from a database read, what it sends from the
// batches it followed, and when it asks for the database instead.
import { describe, expect, it } from 'vitest';
import type { BucketChecksum, StoredOp } from './bucket-storage.ts';
import { MAX_FOLLOWED, OPS_PER_LINE, StreamCheckpointState } from './checkpoint-state.ts';
import type { CommittedBatch } from './replicator.ts';

const MINE = 'by_user["u1"]';
const OTHER = 'by_user["u2"]';

function op(id: number): StoredOp {
  return {
    op_id: String(id),
    op: 'PUT',
    object_type: 'messages',
    object_id: `m${id}`,
    data: '{}',
    checksum: id,
  };
}

function batch(
  base: number,
  head: number,
  buckets: Record<string, number[]> = {},
  extra: Partial<CommittedBatch> = {},
) {
  const map = new Map(
    Object.entries(buckets).map(([b, ids]) => [
      b,
      { checksum: ids.reduce((a, i) => a + i, 0), count: ids.length, ops: ids.map(op) },
    ]),
  );
  return { base: String(base), head: String(head), buckets: map, parametersChanged: false, ...extra };
}

function checksums(entries: Record<string, [number, number]>): Map<string, BucketChecksum> {
  return new Map(
    Object.entries(entries).map(([bucket, [checksum, count]]) => [bucket, { bucket, checksum, count }]),
  );
}

/** A stream of client c1 that resolved MINE (priority 1) and sent its first checkpoint at op 10. */
function started(positions: [string, string][] = []) {
  const state = new StreamCheckpointState('c1', positions);
  expect(state.fromMemory()).toBeUndefined();
  expect(state.takeResolve()).toBe(true);
  state.setBuckets([{ bucket: MINE, priority: 1 }], new Set(['lookup-u1']));
  expect(state.bucketsToRead()).toEqual([MINE]);
  expect(state.takeWriteCheckpointRead()).toBe(true);
  state.setWriteCheckpoint(undefined);
  const plan = state.planFromRead('10', checksums({ [MINE]: [7, 2] }));
  expect(plan).toEqual({
    line: {
      checkpoint: { last_op_id: '10', buckets: [{ bucket: MINE, checksum: 7, priority: 1, count: 2 }] },
    },
    toSend: [MINE],
  });
  state.setPosition(MINE, '10');
  state.completed(checksums({ [MINE]: [7, 2] }));
  return state;
}

const lines = (text: string | null | undefined) =>
  typeof text === 'string'
    ? text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : text;

describe('a sync stream checkpoint state', () => {
  it('starts from the positions the client sent', () => {
    const state = new StreamCheckpointState('c1', [[MINE, '42']]);
    expect(state.position(MINE)).toBe('42');
    expect(state.position(OTHER)).toBe('0');
  });

  it('sends batches it followed without a gap from memory: diff, data from the position, completion', () => {
    const state = started();
    expect(state.committed(batch(10, 11, { [OTHER]: [11] }))).toBe(false);
    expect(state.committed(batch(11, 13, { [MINE]: [12, 13] }))).toBe(true);
    expect(lines(state.fromMemory())).toEqual([
      {
        checkpoint_diff: {
          last_op_id: '13',
          updated_buckets: [{ bucket: MINE, checksum: 25, priority: 1, count: 2 }],
          removed_buckets: [],
        },
      },
      { data: { bucket: MINE, after: '10', next_after: '13', has_more: false, data: [op(12), op(13)] } },
      { checkpoint_complete: { last_op_id: '13' } },
    ]);
    expect(state.position(MINE)).toBe('13');
    // Nothing since: nothing to send.
    expect(state.fromMemory()).toBeNull();
  });

  it('pages a long run of ops in lines of OPS_PER_LINE', () => {
    const state = started();
    const ids = Array.from({ length: OPS_PER_LINE + 1 }, (_, i) => 11 + i);
    state.committed(batch(10, 11 + OPS_PER_LINE, { [MINE]: ids }));
    const out = lines(state.fromMemory()) as {
      data?: { after: string; next_after: string; has_more: boolean };
    }[];
    expect(
      out.filter((l) => l.data).map((l) => [l.data!.after, l.data!.next_after, l.data!.has_more]),
    ).toEqual([
      ['10', String(10 + OPS_PER_LINE), true],
      [String(10 + OPS_PER_LINE), String(11 + OPS_PER_LINE), false],
    ]);
  });

  it('asks for the database after a gap, a batch it cannot follow, or too many batches', () => {
    const gap = started();
    gap.committed(batch(12, 13, { [MINE]: [13] }));
    expect(gap.fromMemory()).toBeUndefined();

    const unfollowable = started();
    unfollowable.committed({ ...batch(10, 11), base: undefined });
    unfollowable.committed(batch(11, 12, { [MINE]: [12] }));
    expect(unfollowable.fromMemory()).toBeUndefined();
    // A read repairs it: what comes after the read's head is followed again.
    expect(unfollowable.takeResolve()).toBe(false);
    unfollowable.bucketsToRead();
    expect(unfollowable.takeWriteCheckpointRead()).toBe(false);
    expect(unfollowable.planFromRead('12', checksums({ [MINE]: [19, 3] }))?.toSend).toEqual([MINE]);
    unfollowable.completed(checksums({ [MINE]: [19, 3] }));
    unfollowable.committed(batch(12, 13, { [MINE]: [13] }));
    expect(lines(unfollowable.fromMemory())).toHaveLength(3);

    const many = started();
    for (let i = 0; i <= MAX_FOLLOWED; i++) many.committed(batch(10 + i, 11 + i, { [MINE]: [11 + i] }));
    expect(many.fromMemory()).toBeUndefined();
  });

  it('puts a batch that arrives late (from another process) in its place, and drops one already sent', () => {
    const state = started();
    // 12..14 arrives before 10..12, which another process committed first.
    state.committed(batch(12, 14, { [MINE]: [13, 14] }));
    expect(state.committed(batch(10, 12, { [OTHER]: [11], [MINE]: [12] }))).toBe(true);
    expect(lines(state.fromMemory())).toEqual([
      {
        checkpoint_diff: {
          last_op_id: '14',
          updated_buckets: [{ bucket: MINE, checksum: 27, priority: 1, count: 2 }],
          removed_buckets: [],
        },
      },
      {
        data: {
          bucket: MINE,
          after: '10',
          next_after: '14',
          has_more: false,
          data: [op(12), op(13), op(14)],
        },
      },
      { checkpoint_complete: { last_op_id: '14' } },
    ]);
    // Late again, after a read covered it: nothing more is sent for it.
    const read = started();
    read.committed(batch(11, 12, { [MINE]: [12] }));
    expect(read.fromMemory()).toBeUndefined();
    read.bucketsToRead();
    read.planFromRead('12', checksums({ [MINE]: [19, 3] }));
    read.setPosition(MINE, '12');
    read.completed(checksums({ [MINE]: [19, 3] }));
    read.committed(batch(10, 11, { [MINE]: [11] }));
    expect(read.fromMemory()).toBeNull();
    read.committed(batch(12, 13, { [MINE]: [13] }));
    expect(lines(read.fromMemory())?.[1]).toEqual({
      data: { bucket: MINE, after: '12', next_after: '13', has_more: false, data: [op(13)] },
    });
  });

  it('resolves its buckets again when a parameter lookup it used changed, not for others', () => {
    const state = started();
    expect(
      state.committed(batch(10, 11, {}, { parametersChanged: true, lookups: new Set(['lookup-u2']) })),
    ).toBe(false);
    expect(state.takeResolve()).toBe(false);
    expect(
      state.committed(batch(11, 12, {}, { parametersChanged: true, lookups: new Set(['lookup-u1']) })),
    ).toBe(true);
    expect(state.fromMemory()).toBeUndefined();
    expect(state.takeResolve()).toBe(true);
    // Unknown lookups: every stream resolves again.
    expect(state.committed(batch(12, 13, {}, { parametersChanged: true }))).toBe(true);
  });

  it('resolves again when a lookup it comes to use changed while it was resolving (the read may predate it)', () => {
    // A stream's first resolve: it has used no lookup yet, and a like committed during its reads adds a card.
    const state = new StreamCheckpointState('c1', []);
    expect(state.takeResolve()).toBe(true);
    expect(
      state.committed(batch(10, 11, {}, { parametersChanged: true, lookups: new Set(['lookup-u1']) })),
    ).toBe(true);
    state.setBuckets([{ bucket: MINE, priority: 1 }], new Set(['lookup-u1']));
    expect(state.bucketsToRead()).toEqual([MINE]);
    state.takeWriteCheckpointRead();
    state.planFromRead('11', checksums({ [MINE]: [7, 2] }));
    state.completed(checksums({ [MINE]: [7, 2] }));
    expect(state.fromMemory()).toBeUndefined();
    expect(state.takeResolve()).toBe(true);
    // One committed meanwhile with a lookup the set does not use: no second resolve.
    expect(
      state.committed(batch(11, 12, {}, { parametersChanged: true, lookups: new Set(['lookup-u2']) })),
    ).toBe(true);
    state.setBuckets([{ bucket: MINE, priority: 1 }], new Set(['lookup-u1']));
    expect(state.takeResolve()).toBe(false);
    // One that changes a lookup the set uses, once resolved: resolved again, as before this case.
    expect(
      state.committed(batch(12, 13, {}, { parametersChanged: true, lookups: new Set(['lookup-u1']) })),
    ).toBe(true);
    expect(state.takeResolve()).toBe(true);
    // One committed during that resolve that does not say which lookups changed: resolved again.
    expect(state.committed(batch(13, 14, {}, { parametersChanged: true }))).toBe(true);
    state.setBuckets([{ bucket: MINE, priority: 1 }], new Set(['lookup-u1']));
    expect(state.takeResolve()).toBe(true);
  });

  it("sends its own client's write checkpoint once the batches reach it, and reads when they do not", () => {
    const state = started();
    expect(state.writeCheckpointMade('another-client', '11')).toBe(false);
    expect(state.writeCheckpointMade('c1', '11')).toBe(true);
    state.committed(batch(10, 11, { [MINE]: [11] }));
    const out = lines(state.fromMemory()) as { checkpoint_diff?: { write_checkpoint?: string } }[];
    expect(out[0]?.checkpoint_diff?.write_checkpoint).toBe('11');
    // One made beyond what was followed: the database decides.
    state.writeCheckpointMade('c1', '20');
    expect(state.fromMemory()).toBeUndefined();
    expect(state.takeWriteCheckpointRead()).toBe(true);
  });

  it('from a read, sends only changed and removed buckets, or nothing', () => {
    const state = started();
    state.setBuckets(
      [
        { bucket: MINE, priority: 1 },
        { bucket: OTHER, priority: 3 },
      ],
      new Set(),
    );
    expect(state.bucketsToRead()).toEqual([MINE, OTHER]);
    expect(state.planFromRead('11', checksums({ [MINE]: [7, 2] }))).toBeUndefined();
    expect(state.planFromRead('12', checksums({ [MINE]: [7, 2], [OTHER]: [5, 1] }))).toEqual({
      line: {
        checkpoint_diff: {
          last_op_id: '12',
          updated_buckets: [{ bucket: OTHER, checksum: 5, priority: 3, count: 1 }],
          removed_buckets: [],
        },
      },
      toSend: [OTHER],
    });
    state.completed(checksums({ [MINE]: [7, 2], [OTHER]: [5, 1] }));
    state.setBuckets([{ bucket: OTHER, priority: 3 }], new Set());
    state.bucketsToRead();
    const removed = state.planFromRead('13', checksums({ [OTHER]: [5, 1] }));
    expect(removed?.line).toEqual({
      checkpoint_diff: { last_op_id: '13', updated_buckets: [], removed_buckets: [MINE] },
    });
    expect(state.position(MINE)).toBe('0');
  });
});
