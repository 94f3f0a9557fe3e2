-- Every row that belongs to a pair of members (their match, calls, games, rounds and round answers) carries
-- the pair's key, so the sync rules (equality lookups only) can key a bucket on the match's pair_key: when
-- the match goes (unmatch, or a block or report, see 0050) the pair's calls and games leave both replicas.
-- A rematch brings them back, as it brings back the conversation. The server keeps every row.

-- The key of an unordered pair of members: '<lower id>:<higher id>'.
create or replace function public.member_pair_key(a uuid, b uuid) returns text
language sql immutable strict parallel safe set search_path = '' as $$
  select least(a, b)::text || ':' || greatest(a, b)::text
$$;

alter table public.matches add column pair_key text;
alter table public.video_calls add column pair_key text;
alter table public.game_sessions add column pair_key text;
alter table public.game_rounds add column pair_key text;
alter table public.game_round_choices add column pair_key text;

comment on column public.matches.pair_key is 'member_pair_key(user_id_1, user_id_2); keys the pair sync buckets.';
comment on column public.video_calls.pair_key is 'member_pair_key(caller_id, recipient_id), set by trigger.';
comment on column public.game_sessions.pair_key is 'member_pair_key(player1_id, player2_id), set by trigger.';
comment on column public.game_rounds.pair_key is 'The session''s pair_key, set by trigger.';
comment on column public.game_round_choices.pair_key is 'The round''s pair_key, set by trigger.';

-- Existing rows. The lifecycle triggers would stamp updated_at on this bookkeeping write, so they are off
-- for it (the statements run in the migration's transaction; the tables are locked by the alters above).
alter table public.video_calls disable trigger video_calls_before_update;
alter table public.game_sessions disable trigger game_sessions_before_update;
alter table public.game_rounds disable trigger game_rounds_before_update;
update public.matches set pair_key = public.member_pair_key(user_id_1, user_id_2);
update public.video_calls set pair_key = public.member_pair_key(caller_id, recipient_id);
update public.game_sessions set pair_key = public.member_pair_key(player1_id, player2_id);
update public.game_rounds r set pair_key = s.pair_key from public.game_sessions s where s.id = r.session_id;
update public.game_round_choices c set pair_key = r.pair_key from public.game_rounds r where r.id = c.round_id;
alter table public.video_calls enable trigger video_calls_before_update;
alter table public.game_sessions enable trigger game_sessions_before_update;
alter table public.game_rounds enable trigger game_rounds_before_update;

alter table public.matches alter column pair_key set not null;
alter table public.video_calls alter column pair_key set not null;
alter table public.game_sessions alter column pair_key set not null;
alter table public.game_rounds alter column pair_key set not null;
alter table public.game_round_choices alter column pair_key set not null;

-- The key is always derived on the server, never taken from a client (a PUT from a replica has none).
-- Before-row triggers run in name order: '*_pair_key' runs after the tables' '*_before_*' triggers, so it
-- sees the final participants. Security definer: a member's insert may not read the parent row by RLS.
create or replace function public.set_pair_key() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_table_name = 'matches' then
    new.pair_key := public.member_pair_key(new.user_id_1, new.user_id_2);
  elsif tg_table_name = 'video_calls' then
    new.pair_key := public.member_pair_key(new.caller_id, new.recipient_id);
  elsif tg_table_name = 'game_sessions' then
    new.pair_key := public.member_pair_key(new.player1_id, new.player2_id);
  elsif tg_table_name = 'game_rounds' then
    new.pair_key := (select s.pair_key from public.game_sessions s where s.id = new.session_id);
  elsif tg_table_name = 'game_round_choices' then
    new.pair_key := (select r.pair_key from public.game_rounds r where r.id = new.round_id);
  end if;
  return new;
end;
$$;
revoke execute on function public.set_pair_key() from public, anon, authenticated;

create trigger matches_pair_key before insert or update on public.matches
  for each row execute function public.set_pair_key();
create trigger video_calls_pair_key before insert or update on public.video_calls
  for each row execute function public.set_pair_key();
create trigger game_sessions_pair_key before insert or update on public.game_sessions
  for each row execute function public.set_pair_key();
create trigger game_rounds_pair_key before insert or update on public.game_rounds
  for each row execute function public.set_pair_key();
create trigger game_round_choices_pair_key before insert or update on public.game_round_choices
  for each row execute function public.set_pair_key();
