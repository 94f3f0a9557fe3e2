// The batches one server process relays to the others (server/sync/batch-relay.ts, decision 0092): a small
// batch travels whole; a large one by its range, its ops read once by each receiving process, so the streams
// there follow it from memory instead of each reading the database; what cannot be followed goes by names.
// Two in-memory buses joined to each other stand for two processes; the ops are real rows of a real database.
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusHandler, BusKind, ClusterBus } from '../../server/cluster/cluster-bus.ts';
import type { StoredOp } from '../../server/sync/bucket-storage.ts';
import { MAX_RELAYED_BATCH_BYTES, describeBatch, relayBatches } from '../../server/sync/batch-relay.ts';
import type { BucketState, CommittedBatch, Replicator } from '../../server/sync/replicator.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';

/** Two buses: what one publishes reaches the other's handlers, a turn later, in order. */
function joinedBuses(): [ClusterBus, ClusterBus] {
  const handlers = [
    new Map<BusKind, Set<BusHandler<BusKind>>>(),
    new Map<BusKind, Set<BusHandler<BusKind>>>(),
  ];
  const make = (mine: number): ClusterBus => ({
    origin: `process-${mine}`,
    shared: true,
    publish(kind, message) {
      const theirs = handlers[1 - mine]!;
      setImmediate(() => {
        for (const h of theirs.get(kind) ?? []) (h as BusHandler<typeof kind>)(message, `process-${mine}`);
      });
    },
    on(kind, handler) {
      const map = handlers[mine]!;
      const set = map.get(kind) ?? new Set();
      map.set(kind, set);
      set.add(handler as BusHandler<BusKind>);
      return () => set.delete(handler as BusHandler<BusKind>);
    },
    async close() {},
  });
  return [make(0), make(1)];
}

/** A stand-in for a process's replicator: the relay only listens to its 'committed'. */
function fakeReplicator(): Replicator {
  return new EventEmitter() as unknown as Replicator;
}

describe.each(getDatabaseKinds())('batches relayed between processes (%s)', (kind) => {
  let db: TestDatabase;
  let opId = 1000n;

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db.destroy();
  });

  /** Writes ops to the database as the replicator would and returns the batch it would announce. */
  async function commitBatch(perBucket: Record<string, number>, dataBytes: number): Promise<CommittedBatch> {
    const base = opId;
    const buckets = new Map<string, BucketState>();
    for (const [bucket, n] of Object.entries(perBucket)) {
      const ops: StoredOp[] = [];
      for (let i = 0; i < n; i++) {
        opId += 1n;
        const op: StoredOp = {
          op_id: String(opId),
          op: i % 5 === 4 ? 'REMOVE' : 'PUT',
          checksum: Number(opId % 4_000_000_000n),
          object_type: 'messages',
          object_id: `row-${opId}`,
        };
        if (op.op === 'PUT') op.data = JSON.stringify({ body: 'x'.repeat(dataBytes), n: i });
        ops.push(op);
      }
      await db.query(
        `insert into heartsync_sync.ops (bucket, op_id, op, object_type, object_id, data, checksum)
         select $1, o.op_id::bigint, o.op, o.object_type, o.object_id, o.data, o.checksum::bigint
           from json_to_recordset($2::json) as o(op_id text, op text, object_type text, object_id text, data text, checksum bigint)`,
        [bucket, JSON.stringify(ops)],
      );
      buckets.set(bucket, { checksum: ops.length * 7, count: ops.length + 3, ops });
    }
    return { base: String(base), head: String(opId), buckets, parametersChanged: false };
  }

  /** Process 0 commits the batches; resolves with what process 1's streams are handed. */
  async function relay(batches: CommittedBatch[]): Promise<CommittedBatch[]> {
    const [busA, busB] = joinedBuses();
    const [a, b] = [fakeReplicator(), fakeReplicator()];
    const log = { warn: (m: string) => expect.fail(m) };
    const got: CommittedBatch[] = [];
    // What a process receives is not relayed back to the one that sent it.
    const echoed: CommittedBatch[] = [];
    const stops = [
      relayBatches({ bus: busA, db, log }, a, (batch) => echoed.push(batch)),
      relayBatches({ bus: busB, db, log }, b, (batch) => got.push(batch)),
    ];
    try {
      for (const batch of batches) a.emit('committed', batch);
      for (let i = 0; i < 200 && got.length < batches.length; i++)
        await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 20));
      expect(echoed).toEqual([]);
      return got;
    } finally {
      for (const stop of stops) stop();
    }
  }

  it('a small batch travels whole', async () => {
    const batch = await commitBatch({ 'room["a"]': 3, 'room["b"]': 2 }, 20);
    expect(describeBatch(batch).full).toBeDefined();
    // Its ops are not read back: removed from the database, they still arrive.
    await db.query('delete from heartsync_sync.ops where op_id > $1::bigint', [batch.base]);
    expect(await relay([batch])).toEqual([batch]);
  });

  it('a large batch goes by its range and arrives with the same ops, read once from the database', async () => {
    const perBucket: Record<string, number> = {};
    // More buckets than a whole batch may name, and more ops than it may carry.
    for (let i = 0; i < 260; i++) perBucket[`match["${i}"]`] = 1 + (i % 3);
    const batch = await commitBatch(perBucket, 300);
    const message = describeBatch(batch);
    expect(message.full).toBeUndefined();
    expect(message.buckets).toBeNull();
    expect(message.ranged?.states).toHaveLength(260);
    expect(JSON.stringify(message).length).toBeLessThan(JSON.stringify([...batch.buckets]).length / 4);
    const [got] = await relay([batch]);
    expect(got).toEqual(batch);
    expect(JSON.stringify([...got!.buckets])).toBe(JSON.stringify([...batch.buckets]));
  });

  it('batches arrive in the order they were committed, a large one read before a small one after it', async () => {
    const large = await commitBatch({ 'room["big"]': 400 }, 400);
    const small = await commitBatch({ 'room["small"]': 1 }, 10);
    expect(describeBatch(large).ranged).toBeDefined();
    expect(describeBatch(small).full).toBeDefined();
    expect(await relay([large, small])).toEqual([large, small]);
  });

  it('a range whose ops changed since (compacted) goes by its names: the streams read the database', async () => {
    const batch = await commitBatch({ 'room["c"]': 300, 'room["d"]': 2 }, 400);
    expect(describeBatch(batch).ranged).toBeDefined();
    // Compaction collapsed part of the run into one op.
    await db.query(
      `delete from heartsync_sync.ops where bucket = 'room["c"]' and op_id > $1::bigint and op_id <= $1::bigint + 10`,
      [batch.base],
    );
    const [got] = await relay([batch]);
    expect(got?.base).toBeUndefined();
    expect([...got!.buckets.keys()].sort()).toEqual(['room["c"]', 'room["d"]']);
    expect(got?.parametersChanged).toBe(false);
  });

  it('a batch too large to describe by its buckets makes every stream read again', () => {
    const buckets = new Map<string, BucketState>();
    for (let i = 0; i < 5001; i++) buckets.set(`b${i}`, { checksum: 1, count: 1, ops: [] });
    const m = describeBatch({ base: '1', head: '2', buckets, parametersChanged: false });
    expect(m.full ?? m.ranged ?? m.buckets).toBeNull();
  });

  it('whole batches stay within what one relayed batch may carry', () => {
    const ops: StoredOp[] = [
      { op_id: '1', op: 'PUT', checksum: 1, data: 'x'.repeat(MAX_RELAYED_BATCH_BYTES) },
    ];
    const m = describeBatch({
      base: '0',
      head: '1',
      buckets: new Map([['b', { checksum: 1, count: 1, ops }]]),
      parametersChanged: false,
    });
    expect(m.full).toBeUndefined();
    expect(m.ranged?.states).toEqual([['b', 1, 1, 1]]);
  });
});
