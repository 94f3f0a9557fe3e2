// Compaction of bucket ops: superseded PUT/REMOVE ops become MOVE ops, and the run of ops before a bucket's
// first live row collapses into one CLEAR op. Checksums are preserved, so clients at any position stay correct.
import type { Database } from '../db/database.ts';

/** Same key as the replicator's, so compaction never interleaves with a replication batch on PostgreSQL. */
const ADVISORY_LOCK_KEY = 7_351_042_001;

export interface CompactResult {
  moved: number;
  cleared: number;
  deleted: number;
}

export async function compactBuckets(db: Database): Promise<CompactResult> {
  return db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('select pg_advisory_xact_lock($1)', [ADVISORY_LOCK_KEY]);
    // A later op of the same row in the same bucket makes this one irrelevant to its data, not its checksum.
    const moved = await tx.query(
      `update heartsync_sync.ops o set op = 'MOVE', object_type = null, object_id = null, data = null
        where o.op in ('PUT', 'REMOVE') and exists (
          select 1 from heartsync_sync.ops n
           where n.bucket = o.bucket and n.object_type = o.object_type and n.object_id = o.object_id
             and n.op_id > o.op_id)`,
    );
    // A run of consecutive MOVE ops says no more than one MOVE carrying their summed checksum. A client whose
    // position lies inside a merged run sees a checksum mismatch and downloads that bucket again.
    const runs = await tx.query<{ bucket: string; first_op: string; last_op: string; checksum: string }>(
      `select bucket, min(op_id) as first_op, max(op_id) as last_op, sum(checksum) % 4294967296 as checksum
         from (select bucket, op_id, op, checksum,
                      sum(case when op = 'MOVE' then 0 else 1 end) over (partition by bucket order by op_id) as grp
                 from heartsync_sync.ops) o
        where op = 'MOVE'
        group by bucket, grp
       having count(*) > 1`,
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
         left join (select bucket, min(op_id) as first_put from heartsync_sync.ops where op = 'PUT' group by bucket) f
           on f.bucket = o.bucket
        where f.first_put is null or o.op_id < f.first_put
        group by o.bucket
       having count(*) > 1`,
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
    // A client unseen for a month has been reinstalled or is gone; a later upload makes a fresh entry.
    await tx.query(
      `delete from heartsync_sync.write_checkpoints where updated_at < now() - interval '30 days'`,
    );
    return { moved: moved.rowCount, cleared: prefixes.length, deleted };
  });
}
