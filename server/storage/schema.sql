-- platform-sql: before migrations
-- Platform columns the self-contained storage needs on storage.objects, as hosted Supabase has them.
-- Idempotent: applied at every boot before the migrations; never applied on Supabase itself.
alter table storage.objects add column if not exists version text;
create index if not exists objects_owner_idx on storage.objects (owner);
