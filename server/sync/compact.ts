// Compaction of bucket ops: superseded PUT/REMOVE ops become MOVE ops, and the run of ops before a bucket's
// first live row collapses into one CLEAR op. Checksums are preserved, so clients at any position stay correct.
// A pass looks only at the buckets written since the last pass (compaction leaves a bucket with nothing more to
// do until its next op): reading every op held the replicator's lock for 17-25 s at 100k members.
import type { Database, Queryable } from '../db/database.ts';

/** Same key as the replicator's, so compaction never interleaves with a replication batch on PostgreSQL. */
const ADVISORY_LOCK_KEY = 7_351_042_001;
/** Buckets compacted per transaction (each a few ms at most when written since the last pass). */
const BUCKETS_PER_TRANSACTION = 1000;

export interface CompactResult {
  /** Buckets written since the last pass, the only ones this pass read. */
  buckets: number;
  moved: number;
  cleared: number;
  deleted: number;
}

export async function compactBuckets(db: Database): Promise<CompactResult> {
  // Outside the lock, so replication goes on meanwhile: the committed head (every op up to it is committed: a
  // batch moves the head in its own transaction), then the buckets with an op after the last pass's head. A
  // bucket written later is either in the list or left for the next pass.
  const { rows: state } = await db.query<{ head: string; through: string }>(
    'select head::text as head, compacted_through::text as through from heartsync_sync.state',
  );
  const head = state[0]?.head ?? '0';
  const { rows: written } = await db.query<{ bucket: string }>(
    'select bucket from heartsync_sync.buckets where last_op > $1::bigint',
    [state[0]?.through ?? '0'],
  );
  const dirty = written.map((r) => r.bucket);
  const total: CompactResult = { buckets: dirty.length, moved: 0, cleared: 0, deleted: 0 };
  // A transaction per group of buckets, so replication waits at most for one group (after a restart with a
  // large backlog, or the first pass of all).
  for (let i = 0; i < dirty.length; i += BUCKETS_PER_TRANSACTION) {
    const r = await db.transaction(async (tx) => {
      if (db.kind === 'postgres') await tx.query('select pg_advisory_xact_lock($1)', [ADVISORY_LOCK_KEY]);
      return compactGroup(tx, dirty.slice(i, i + BUCKETS_PER_TRANSACTION));
    });
    total.moved += r.moved;
    total.cleared += r.cleared;
    total.deleted += r.deleted;
  }
  // Only once every group is done (a pass that fails part way is redone next time). Passes of several
  // processes may overlap: the mark only moves forward.
  await db.query(
    'update heartsync_sync.state set compacted_through = greatest(compacted_through, $1::bigint)',
    [head],
  );
  // A client unseen for a month has been reinstalled or is gone; a later upload makes a fresh entry.
  await db.query(
    `delete from heartsync_sync.write_checkpoints where updated_at < now() - interval '30 days'`,
  );
  return total;
}

/** Compacts the given buckets in the caller's transaction. */
async function compactGroup(tx: Queryable, dirty: string[]): Promise<Omit<CompactResult, 'buckets'>> {
  // A later op of the same row in the same bucket makes this one irrelevant to its data, not its checksum.
  const moved = await tx.query(
    `update heartsync_sync.ops o set op = 'MOVE', object_type = null, object_id = null, data = null
      where o.bucket = any($1::text[]) and o.op in ('PUT', 'REMOVE') and exists (
        select 1 from heartsync_sync.ops n
         where n.bucket = o.bucket and n.object_type = o.object_type and n.object_id = o.object_id
           and n.op_id > o.op_id)`,
    [dirty],
  );
  // A run of consecutive MOVE ops says no more than one MOVE carrying their summed checksum. A client whose
  // position lies inside a merged run sees a checksum mismatch and downloads that bucket again.
  const runs = await tx.query<{ bucket: string; first_op: string; last_op: string; checksum: string }>(
    `select bucket, min(op_id) as first_op, max(op_id) as last_op, sum(checksum) % 4294967296 as checksum
       from (select bucket, op_id, op, checksum,
                    sum(case when op = 'MOVE' then 0 else 1 end) over (partition by bucket order by op_id) as grp
               from heartsync_sync.ops where bucket = any($1::text[])) o
      where op = 'MOVE'
      group by bucket, grp
     having count(*) > 1`,
    [dirty],
  );
  let merged = 0;
  if (runs.rows.length > 0) {
    const r = runs.rows;
    const removed = await tx.query(
      `delete from heartsync_sync.ops o using unnest($1::text[], $2::bigint[], $3::bigint[]) as p(bucket, first_op, last_op)
        where o.bucket = p.bucket and o.op_id between p.first_op and p.last_op`,
      [r.map((x) => x.bucket), r.map((x) => x.first_op), r.map((x) => x.last_op)],
    );
    merged = removed.rowCount - r.length;
    await tx.query(
      `insert into heartsync_sync.ops (bucket, op_id, op, checksum)
       select * from unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[])`,
      [r.map((x) => x.bucket), r.map((x) => x.last_op), r.map(() => 'MOVE'), r.map((x) => x.checksum)],
    );
  }
  // Before the first PUT still in effect, a bucket holds only MOVE/REMOVE/CLEAR: one CLEAR says the same.
  const { rows: prefixes } = await tx.query<{
    bucket: string;
    last_op: string;
    checksum: string;
    n: string;
  }>(
    `select o.bucket, max(o.op_id) as last_op, sum(o.checksum) % 4294967296 as checksum, count(*) as n
       from heartsync_sync.ops o
       left join (select bucket, min(op_id) as first_put from heartsync_sync.ops
                   where bucket = any($1::text[]) and op = 'PUT' group by bucket) f
         on f.bucket = o.bucket
      where o.bucket = any($1::text[]) and (f.first_put is null or o.op_id < f.first_put)
      group by o.bucket
     having count(*) > 1`,
    [dirty],
  );
  let deleted = merged;
  const touched = new Set(runs.rows.map((r) => r.bucket));
  if (prefixes.length > 0) {
    const buckets = prefixes.map((p) => p.bucket);
    const lasts = prefixes.map((p) => p.last_op);
    const removed = await tx.query(
      `delete from heartsync_sync.ops o using unnest($1::text[], $2::bigint[]) as p(bucket, last_op)
        where o.bucket = p.bucket and o.op_id <= p.last_op`,
      [buckets, lasts],
    );
    deleted += removed.rowCount;
    await tx.query(
      `insert into heartsync_sync.ops (bucket, op_id, op, checksum)
       select bucket, last_op, 'CLEAR', checksum from unnest($1::text[], $2::bigint[], $3::bigint[]) as p(bucket, last_op, checksum)`,
      [buckets, lasts, prefixes.map((p) => p.checksum)],
    );
    for (const b of buckets) touched.add(b);
  }
  if (touched.size > 0) {
    await tx.query(
      `update heartsync_sync.buckets b set op_count = (select count(*) from heartsync_sync.ops o where o.bucket = b.bucket)
        where b.bucket = any($1::text[])`,
      [[...touched]],
    );
  }
  return { moved: moved.rowCount, cleared: prefixes.length, deleted };
}
