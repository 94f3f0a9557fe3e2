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
