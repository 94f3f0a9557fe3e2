// Reads of the stored buckets for the sync stream: checkpoints, op pages, parameter lookups, write checkpoints.
import type { SqliteJsonRow } from '@powersync/service-sync-rules';
import type { Queryable } from '../db/database.ts';

export interface BucketChecksum {
  bucket: string;
  checksum: number;
  count: number;
}

export interface StoredOp {
  op_id: string;
  op: 'PUT' | 'REMOVE' | 'MOVE' | 'CLEAR';
  object_type?: string;
  object_id?: string;
  data?: string;
  checksum: number;
}

/** An op as the ops table stores it (the columns the stream sends). */
export interface OpRow {
  op_id: string;
  op: StoredOp['op'];
  object_type: string | null;
  object_id: string | null;
  data: string | null;
  checksum: string | number;
}

/** An op row as the stream sends it: absent fields left out, as the replicator's own ops (replicator.ts). */
export function toStoredOp(r: OpRow): StoredOp {
  const op: StoredOp = { op_id: r.op_id, op: r.op, checksum: Number(r.checksum) };
  if (r.object_type !== null) op.object_type = r.object_type;
  if (r.object_id !== null) op.object_id = r.object_id;
  if (r.data !== null) op.data = r.data;
  return op;
}

/** The head op id and the checksums of the given buckets, read in one statement so they agree. */
export async function readCheckpoint(
  db: Queryable,
  buckets: string[],
): Promise<{ head: string; checksums: Map<string, BucketChecksum> }> {
  const { rows } = await db.query<{
    head: string;
    bucket: string | null;
    checksum: string | null;
    op_count: string | null;
  }>(
    `select s.head, b.bucket, b.checksum, b.op_count
       from heartsync_sync.state s
       left join heartsync_sync.buckets b on b.bucket = any($1::text[])`,
    [buckets],
    { name: 'hs_sync_read_checkpoint' },
  );
  const checksums = new Map<string, BucketChecksum>();
  for (const b of buckets) checksums.set(b, { bucket: b, checksum: 0, count: 0 });
  for (const r of rows) {
    if (r.bucket)
      checksums.set(r.bucket, { bucket: r.bucket, checksum: Number(r.checksum), count: Number(r.op_count) });
  }
  return { head: rows[0]?.head ?? '0', checksums };
}

/** Ops of a bucket after `after` up to `head`, in op id order; hasMore when the page is full. */
export async function readOps(
  db: Queryable,
  bucket: string,
  after: string,
  head: string,
  limit: number,
): Promise<{ ops: StoredOp[]; hasMore: boolean }> {
  const { rows } = await db.query<OpRow>(
    `select op_id, op, object_type, object_id, data, checksum from heartsync_sync.ops
      where bucket = $1 and op_id > $2::bigint and op_id <= $3::bigint
      order by op_id limit $4`,
    [bucket, after, head, limit + 1],
  );
  return { ops: rows.slice(0, limit).map(toStoredOp), hasMore: rows.length > limit };
}

/**
 * The same page as readOps, as the JSON text of the data line's op array, built by the database: one
 * text value instead of a row per op (on PGlite each row returned costs far more than the JSON it holds),
 * joined from each op's JSON object, which the ops table keeps beside the op (its `line` column, schema.sql;
 * decision 0079).
 */
export async function readOpsJson(
  db: Queryable,
  bucket: string,
  after: string,
  head: string,
  limit: number,
): Promise<{ json: string; last: string | undefined; hasMore: boolean }> {
  const { rows } = await db.query<{ ops: string; last: string | null; has_more: boolean }>(
    `with page as (
       select op_id, line from heartsync_sync.ops
        where bucket = $1 and op_id > $2::bigint and op_id <= $3::bigint
        order by op_id limit $4::int + 1),
     kept as (select * from page order by op_id limit $4::int)
     select coalesce('[' || (select string_agg(line, ',' order by op_id) from kept) || ']', '[]') as ops,
       (select max(op_id)::text from kept) as last,
       (select count(*) from page) > $4::int as has_more`,
    [bucket, after, head, limit],
    { name: 'hs_sync_read_ops_json' },
  );
  const row = rows[0];
  return { json: row?.ops ?? '[]', last: row?.last ?? undefined, hasMore: row?.has_more ?? false };
}

/** Rows of table-based parameter queries for the given lookups. */
export async function findParameterSets(
  db: Queryable,
  lookups: string[],
): Promise<Map<string, SqliteJsonRow[]>> {
  const found = new Map<string, SqliteJsonRow[]>();
  if (lookups.length === 0) return found;
  const { rows } = await db.query<{ lookup: string; bucket_parameters: SqliteJsonRow[] }>(
    `select lookup, bucket_parameters from heartsync_sync.parameter_lookups
      where lookup = any($1::text[]) order by source_table, source_key`,
    [lookups],
    { name: 'hs_sync_parameter_sets' },
  );
  for (const r of rows) {
    const list = found.get(r.lookup) ?? [];
    list.push(...r.bucket_parameters);
    found.set(r.lookup, list);
  }
  return found;
}

/** Records the write checkpoint handed to a client: the head once its uploaded writes are replicated. */
export async function saveWriteCheckpoint(db: Queryable, userId: string, clientId: string): Promise<string> {
  const { rows } = await db.query<{ op_id: string }>(
    `insert into heartsync_sync.write_checkpoints (user_id, client_id, op_id)
     select $1, $2, head from heartsync_sync.state
     on conflict (user_id, client_id) do update set op_id = excluded.op_id, updated_at = now()
     returning op_id`,
    [userId, clientId],
    { name: 'hs_sync_save_write_checkpoint' },
  );
  return rows[0]?.op_id ?? '0';
}

export async function findWriteCheckpoint(
  db: Queryable,
  userId: string,
  clientId: string,
): Promise<string | undefined> {
  const { rows } = await db.query<{ op_id: string }>(
    'select op_id from heartsync_sync.write_checkpoints where user_id = $1 and client_id = $2',
    [userId, clientId],
    { name: 'hs_sync_find_write_checkpoint' },
  );
  return rows[0]?.op_id;
}
