-- Clients make message ids (a retried upload then hits the primary key, 23505, instead of duplicating), and
-- keep doing so; a client that leaves the id out (supabase-js as hosted Supabase users write it) gets one
-- from the server instead of a not-null error. Every other table a member inserts into already has a default
-- (game_rounds takes its id from its natural key in a trigger).
alter table public.messages alter column id set default gen_random_uuid();
