-- platform-sql: after migrations
-- Change capture and bucket storage of the self-contained sync service (server/sync). Not a migration:
-- applied after the migrations at every boot, so every statement is idempotent. Never applied on Supabase
-- (the hosted PowerSync Service replicates from the WAL instead).

create schema if not exists heartsync_sync;
revoke all on schema heartsync_sync from public;

-- Rows changed in captured tables, in commit-ish order; the replicator turns them into bucket ops and
-- deletes them, so a change committed late with a lower id is still picked up.
create table if not exists heartsync_sync.changes (
  id bigserial primary key,
  source_schema text not null,
  source_table text not null,
  op text not null check (op in ('INSERT', 'UPDATE', 'DELETE')),
  old_row jsonb,
  new_row jsonb,
  created_at timestamptz not null default now()
);

-- One row: the last op id handed out (op ids are 64-bit, increasing, never reused).
create table if not exists heartsync_sync.state (
  singleton boolean primary key default true check (singleton),
  head bigint not null default 0,
  rules_hash text
);
insert into heartsync_sync.state (singleton, head) values (true, 0) on conflict do nothing;
-- Every op up to this id has been through a compaction pass (compact.ts): a bucket whose last op is not later
-- has nothing new to compact.
alter table heartsync_sync.state add column if not exists compacted_through bigint not null default 0;

-- The bucket operations clients download (PUT, REMOVE, MOVE, CLEAR), per bucket in op id order.
create table if not exists heartsync_sync.ops (
  bucket text not null,
  op_id bigint not null,
  op text not null check (op in ('PUT', 'REMOVE', 'MOVE', 'CLEAR')),
  object_type text,
  object_id text,
  data text,
  checksum bigint not null check (checksum >= 0 and checksum < 4294967296),
  primary key (bucket, op_id)
);
-- Compaction finds the ops a later op of the same row supersedes.
create index if not exists ops_row_idx on heartsync_sync.ops (bucket, object_type, object_id, op_id);

-- A string as a JSON string literal. to_json is declared stable (some types print by settings); for text it
-- depends on nothing, which a generated column needs to be told.
create or replace function heartsync_sync.json_string(value text) returns text
language sql immutable strict parallel safe as $$ select to_json(value)::text $$;
-- Each op as the JSON object the sync stream sends (sync-stream.ts, readOpsJson), written once with the op
-- (and again when compaction rewrites it) instead of at every download: building it for a 10k-row first sync
-- was most of the server's answer (decision 0079). A null field is left out, as PowerSync's service does.
alter table heartsync_sync.ops add column if not exists line text generated always as (
  '{"op_id":"' || op_id::text || '","op":"' || op || '"'
  || coalesce(',"object_type":' || heartsync_sync.json_string(object_type), '')
  || coalesce(',"object_id":' || heartsync_sync.json_string(object_id), '')
  || coalesce(',"data":' || heartsync_sync.json_string(data), '')
  || ',"checksum":' || checksum::text || '}') stored;

-- Sum of each bucket's op checksums modulo 2^32, kept with every write so checkpoints stay cheap.
create table if not exists heartsync_sync.buckets (
  bucket text primary key,
  checksum bigint not null default 0,
  op_count bigint not null default 0,
  last_op bigint not null default 0
);

-- Which buckets each source row is in right now, so leaving a bucket emits a REMOVE.
create table if not exists heartsync_sync.current_rows (
  source_table text not null,
  source_key text not null,
  bucket text not null,
  object_type text not null,
  object_id text not null,
  checksum bigint not null,
  op_id bigint not null,
  primary key (source_table, source_key, bucket, object_type, object_id)
);
create index if not exists current_rows_bucket_idx on heartsync_sync.current_rows (bucket, object_type, object_id);

-- Index entries of table-based parameter queries (e.g. the matches a member is part of).
create table if not exists heartsync_sync.parameter_lookups (
  source_table text not null,
  source_key text not null,
  lookup text not null,
  bucket_parameters jsonb not null,
  primary key (source_table, source_key, lookup)
);
create index if not exists parameter_lookups_lookup_idx on heartsync_sync.parameter_lookups (lookup);

-- The last write checkpoint handed to each client of each member (see /write-checkpoint2.json).
create table if not exists heartsync_sync.write_checkpoints (
  user_id text not null,
  client_id text not null,
  op_id bigint not null,
  updated_at timestamptz not null default now(),
  primary key (user_id, client_id)
);

-- Which tables are captured, and whether their existing rows were already snapshotted.
create table if not exists heartsync_sync.captured_tables (
  source_schema text not null,
  source_table text not null,
  snapshot_done boolean not null default false,
  primary key (source_schema, source_table)
);

create or replace function heartsync_sync.capture_row() returns trigger
language plpgsql security definer set search_path = pg_catalog as $$
begin
  insert into heartsync_sync.changes (source_schema, source_table, op, old_row, new_row)
  values (
    tg_table_schema,
    tg_table_name,
    tg_op,
    case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end,
    case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end
  );
  -- One notification per transaction (identical payloads are folded), read by the replicator.
  perform pg_notify('heartsync_sync_changes', '');
  return null;
end
$$;

-- One replication batch's write (see replicator.ts, writePlan): the head moves by the number of ops, the ops,
-- their buckets' running checksums, the row memberships and the parameter lookups, as data-modifying CTEs on
-- disjoint rows in one statement. A function so the statement is parsed once per connection.
-- Two functions with this one body, each with its own plan cache (decision 0113):
-- - write_batch plans the statement again for each call's arrays, which PostgreSQL does for it anyway: the
--   generic plan's estimate of 10 rows per array costs more than a custom plan's of one row, so the custom
--   plan always won. A copy of thousands of rows is planned for its size.
-- - write_small_batch (the replicator's choice for a batch of a few rows, every write a member makes) uses the
--   plan made once per connection. Planning was half of a one-op write (PGlite 1.2 -> 0.5 ms, PostgreSQL
--   1.0 -> 0.5 ms). A plan kept for the connection's life must not depend on how big the tables were when it
--   was made: with sequential scans, hash and merge joins off, every table is reached by index probes from
--   the batch's rows, whatever its size (and the 1e10 cost of the one sequential scan left, of the one-row
--   state, must not switch on JIT compilation).
do $do$
declare
  args constant text := 'bigint, text[], bigint[], text[], text[], text[], text[], bigint[], text[], bigint[], bigint[], bigint[], text[], text[], text[], text[], text[], text[], text[], text[], text[], text[], bigint[], bigint[], text[], text[], text[], text[], text[], text[]';
  body constant text := $body$
#variable_conflict use_column
begin
  return query
  with s as (
    update heartsync_sync.state set head = head + $1 returning head - $1 as base),
  o as (
    insert into heartsync_sync.ops (bucket, op_id, op, object_type, object_id, data, checksum)
    select x.b, s.base + x.r, x.op, x.ot, x.oi, x.d, x.c from s,
      unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[])
        as x(b, r, op, ot, oi, d, c)),
  bk as (
    insert into heartsync_sync.buckets (bucket, checksum, op_count, last_op)
    select x.b, x.c, x.n, s.base + x.l from s, unnest($9::text[], $10::bigint[], $11::bigint[], $12::bigint[])
      as x(b, c, n, l)
    on conflict (bucket) do update set
      checksum = (heartsync_sync.buckets.checksum + excluded.checksum) % 4294967296,
      op_count = heartsync_sync.buckets.op_count + excluded.op_count,
      last_op = greatest(heartsync_sync.buckets.last_op, excluded.last_op)
    returning bucket, checksum, op_count),
  g as (
    delete from heartsync_sync.current_rows c
     using unnest($13::text[], $14::text[], $15::text[], $16::text[], $17::text[]) as g(t, k, b, ot, oi)
     where c.source_table = g.t and c.source_key = g.k and c.bucket = g.b
       and c.object_type = g.ot and c.object_id = g.oi),
  cr as (
    insert into heartsync_sync.current_rows (source_table, source_key, bucket, object_type, object_id, checksum, op_id)
    select x.t, x.k, x.b, x.ot, x.oi, x.c, s.base + x.r from s,
      unnest($18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::bigint[], $24::bigint[])
        as x(t, k, b, ot, oi, c, r)
    on conflict (source_table, source_key, bucket, object_type, object_id)
    do update set checksum = excluded.checksum, op_id = excluded.op_id),
  pf as (
    select * from unnest($27::text[], $28::text[], $29::text[], $30::text[]) as x(t, k, l, p)),
  pd as (
    delete from heartsync_sync.parameter_lookups p using unnest($25::text[], $26::text[]) as r(t, k)
     where p.source_table = r.t and p.source_key = r.k
       and not exists (select 1 from pf where pf.t = p.source_table and pf.k = p.source_key and pf.l = p.lookup)
    returning p.lookup),
  pi as (
    insert into heartsync_sync.parameter_lookups (source_table, source_key, lookup, bucket_parameters)
    select t, k, l, p::jsonb from pf
    on conflict (source_table, source_key, lookup) do update set bucket_parameters = excluded.bucket_parameters
      where heartsync_sync.parameter_lookups.bucket_parameters is distinct from excluded.bucket_parameters
    returning lookup)
  select s.base,
    (select json_agg(json_build_array(bucket, checksum, op_count)) from bk) as buckets,
    array(select lookup from pd union select lookup from pi) as lookups
  from s;
end
$body$;
begin
  execute format(
    'create or replace function heartsync_sync.write_batch(%s) returns table (base bigint, buckets json, lookups text[])
     language plpgsql as %L', args, body);
  execute format(
    'create or replace function heartsync_sync.write_small_batch(%s) returns table (base bigint, buckets json, lookups text[])
     language plpgsql set plan_cache_mode = force_generic_plan set enable_seqscan = off set enable_hashjoin = off
       set enable_mergejoin = off set jit = off as %L', args, body);
end
$do$;

-- Attaches the capture trigger to a table when it exists; returns whether it is captured.
create or replace function heartsync_sync.capture_table(p_schema text, p_table text) returns boolean
language plpgsql as $$
declare
  rel regclass := to_regclass(format('%I.%I', p_schema, p_table));
begin
  if rel is null then
    return false;
  end if;
  if not exists (
    select 1 from pg_trigger where tgrelid = rel and tgname = 'heartsync_sync_capture' and not tgisinternal
  ) then
    execute format(
      'create trigger heartsync_sync_capture after insert or update or delete on %s for each row execute function heartsync_sync.capture_row()',
      rel
    );
  end if;
  insert into heartsync_sync.captured_tables (source_schema, source_table)
  values (p_schema, p_table) on conflict do nothing;
  return true;
end
$$;

-- Re-attach to every table captured before (the server attaches new ones for the rules it loads).
do $$
declare
  t record;
begin
  for t in select source_schema, source_table from heartsync_sync.captured_tables loop
    perform heartsync_sync.capture_table(t.source_schema, t.source_table);
  end loop;
end
$$;
