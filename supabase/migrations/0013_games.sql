-- Two-player games between matched members: sessions (invitation -> active -> completed), rounds with
-- one row per (session, round_number), and the players' choices kept secret until both answered
-- (docs/decisions: game choices are written to game_round_choices and revealed on game_rounds).

create table public.game_types (
  id text primary key constraint game_types_id_check check (id ~ '^[a-z][a-z0-9-]{1,39}$'),
  name text not null,
  description text not null,
  sort_order integer not null
);
alter table public.game_types enable row level security;
revoke all on public.game_types from anon, authenticated;
grant select on public.game_types to authenticated;
create policy game_types_read on public.game_types for select to authenticated using (true);

insert into public.game_types (id, name, description, sort_order) values
  ('this-or-that', 'This or That', 'Pick one of two and see whether you think alike.', 1),
  ('would-you-rather', 'Would You Rather', 'Dilemmas from silly to telling; compare your answers.', 2),
  ('story-builder', 'Story Builder', 'Write a little story together, one line each.', 3),
  ('couple-quiz', 'Couple Quiz', 'How well do you know each other? Guess your match''s answers.', 4);

-- Sessions -------------------------------------------------------------------------------------

create table public.game_sessions (
  id uuid primary key default gen_random_uuid(),
  player1_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  player2_id uuid not null references public.profiles (id) on delete cascade,
  game_type text not null references public.game_types (id),
  status text not null default 'pending'
    constraint game_sessions_status_check check (status in ('pending', 'active', 'declined', 'completed')),
  current_round integer not null default 0
    constraint game_sessions_current_round_check check (current_round between 0 and 100),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz,
  constraint game_sessions_two_players_check check (player1_id <> player2_id)
);

comment on table public.game_sessions is
  'A game between two matched members; player1 invites, player2 accepts or declines, either completes.';

create index game_sessions_player1_idx on public.game_sessions (player1_id, created_at desc);
create index game_sessions_player2_idx on public.game_sessions (player2_id, created_at desc);
create index game_sessions_game_type_idx on public.game_sessions (game_type);

-- Internal: 1 or 2 when uid plays in the session, else null.
create or replace function public.get_game_slot(session uuid, uid uuid)
returns integer
language sql
stable
security definer
set search_path = public, pg_temp
as $$
  select case when s.player1_id = uid then 1 when s.player2_id = uid then 2 end
    from public.game_sessions s where s.id = session
$$;
revoke execute on function public.get_game_slot(uuid, uuid) from public, anon, authenticated;

alter table public.game_sessions enable row level security;
revoke all on public.game_sessions from anon, authenticated;
grant select, insert, update on public.game_sessions to authenticated;

-- Only the two players, and only while they are matched and neither blocked or reported the other.
create policy game_sessions_select_players on public.game_sessions for select to authenticated
  using ((player1_id = auth.uid() and public.is_connected_with(player2_id))
      or (player2_id = auth.uid() and public.is_connected_with(player1_id)));
create policy game_sessions_insert_as_player1 on public.game_sessions for insert to authenticated
  with check (player1_id = auth.uid() and public.is_connected_with(player2_id));
create policy game_sessions_update_players on public.game_sessions for update to authenticated
  using ((player1_id = auth.uid() and public.is_connected_with(player2_id))
      or (player2_id = auth.uid() and public.is_connected_with(player1_id)))
  with check (auth.uid() in (player1_id, player2_id));
-- No delete policy: a finished game stays in both players' history.

create or replace function public.game_sessions_before_insert()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
begin
  if auth.role() is not null and auth.role() <> 'service_role' and new.player1_id is distinct from auth.uid() then
    raise exception using errcode = '42501', message = 'A game is started as yourself';
  end if;
  if new.status <> 'pending' or new.current_round <> 0 or new.completed_at is not null then
    raise exception using errcode = '23514', message = 'A new game starts as a pending invitation',
      detail = 'status must be pending, current_round 0 and completed_at empty.';
  end if;
  if not public.are_connected(new.player1_id, new.player2_id) then
    raise exception using errcode = '42501', message = 'Games are only played with a match';
  end if;
  new.created_at := now();
  new.updated_at := now();
  return new;
end;
$$;

create trigger game_sessions_before_insert
  before insert on public.game_sessions
  for each row execute function public.game_sessions_before_insert();

-- pending -> active | declined by player2 only; pending | active -> completed by either player;
-- declined and completed are final. current_round only moves forward, and only while active.
create or replace function public.game_sessions_before_update()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  me uuid := auth.uid();
  is_service boolean := coalesce(auth.role(), 'service_role') = 'service_role';
begin
  if new.id <> old.id or new.player1_id <> old.player1_id or new.player2_id <> old.player2_id
     or new.game_type <> old.game_type or new.created_at <> old.created_at then
    raise exception using errcode = '42501', message = 'The players and type of a game are fixed';
  end if;
  new.completed_at := old.completed_at;
  if new.status <> old.status then
    if old.status in ('declined', 'completed') then
      raise exception using errcode = 'P0001', message = 'game_already_finished';
    elsif old.status = 'pending' and new.status in ('active', 'declined') then
      if not is_service and me is distinct from old.player2_id then
        raise exception using errcode = '42501', message = 'Only the invited player answers an invitation';
      end if;
    elsif new.status = 'completed' then
      new.completed_at := now();
    elsif new.status not in ('pending', 'active', 'declined', 'completed') then
      raise exception using errcode = '23514', message = 'Unknown game status',
        detail = 'status is one of pending, active, declined, completed.';
    else
      raise exception using errcode = 'P0001', message = 'invalid_game_transition',
        detail = format('A game cannot go from %s to %s.', old.status, new.status);
    end if;
  end if;
  if new.current_round <> old.current_round then
    if old.status in ('declined', 'completed') or new.status not in ('active', 'completed') then
      raise exception using errcode = 'P0001', message = 'game_not_active';
    end if;
    if new.current_round < old.current_round then
      raise exception using errcode = '23514', message = 'current_round only moves forward';
    end if;
  end if;
  new.updated_at := now();
  return new;
end;
$$;

create trigger game_sessions_before_update
  before update on public.game_sessions
  for each row execute function public.game_sessions_before_update();

-- The invited player hears about the invitation; the inviter hears the answer.
create or replace function public.game_sessions_notify()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  actor_id uuid;
  actor_name text;
  game_name text;
begin
  select g.name into game_name from public.game_types g where g.id = new.game_type;
  if tg_op = 'INSERT' then
    actor_id := new.player1_id;
  elsif old.status = 'pending' and new.status in ('active', 'declined') then
    actor_id := new.player2_id;
  else
    return null;
  end if;
  select coalesce(nullif(btrim(p.name), ''), 'Your match') into actor_name
    from public.profiles p where p.id = actor_id;
  actor_name := coalesce(actor_name, 'Your match');
  if tg_op = 'INSERT' then
    insert into public.notifications (user_id, type, title, body, link, data)
    values (new.player2_id, 'game_invitation', 'New game invitation',
            actor_name || ' invited you to play ' || game_name, '/match-list',
            jsonb_build_object('sessionId', new.id, 'gameType', new.game_type, 'fromUserId', actor_id));
  else
    insert into public.notifications (user_id, type, title, body, link, data)
    values (new.player1_id,
            case when new.status = 'active' then 'game_invitation_accepted' else 'game_invitation_declined' end,
            case when new.status = 'active' then 'Game accepted' else 'Game declined' end,
            actor_name || case when new.status = 'active' then ' accepted your ' else ' declined your ' end
              || game_name || ' invitation',
            '/match-list',
            jsonb_build_object('sessionId', new.id, 'gameType', new.game_type, 'fromUserId', actor_id));
  end if;
  return null;
end;
$$;

create trigger game_sessions_notify_insert
  after insert on public.game_sessions
  for each row execute function public.game_sessions_notify();
create trigger game_sessions_notify_answer
  after update of status on public.game_sessions
  for each row execute function public.game_sessions_notify();

-- Rounds ---------------------------------------------------------------------------------------

-- The id of round n of a session, so two devices creating the same round land on one row (upsert on
-- id). A name-based UUID (version 8): the first 16 bytes of
-- sha256(16 bytes of the session id || round_number as 4-byte big-endian), version nibble 8, RFC 4122
-- variant. Browsers compute the same with SubtleCrypto (sha256 is in PostgreSQL 11+ core).
create or replace function public.game_round_id(session_id uuid, round_number integer)
returns uuid
language sql
immutable
strict
set search_path = pg_catalog
as $$
  select (
    substr(h, 1, 12) || '8' || substr(h, 14, 3)
    || substr('89ab', (('x' || substr(h, 17, 1))::bit(4)::integer & 3) + 1, 1)
    || substr(h, 18, 15)
  )::uuid
  from (
    select encode(substr(sha256(uuid_send($1) || int4send($2)), 1, 16), 'hex') as h
  ) as digest
$$;

-- A round question: an object with a "text" string, optional "optionA"/"optionB" strings (other keys,
-- such as a quiz's "options" list, are allowed), at most 2000 bytes.
create or replace function public.is_game_question_ok(q jsonb)
returns boolean
language sql
immutable
set search_path = pg_catalog
as $$
  -- coalesce: a CHECK passes on null, and a missing key makes these comparisons null.
  select coalesce(
    jsonb_typeof(q) = 'object'
      and jsonb_typeof(q -> 'text') = 'string'
      and char_length(btrim(q ->> 'text')) between 1 and 500
      and coalesce(jsonb_typeof(q -> 'optionA'), 'string') = 'string'
      and coalesce(jsonb_typeof(q -> 'optionB'), 'string') = 'string'
      and octet_length(q::text) <= 2000,
    false)
$$;

create table public.game_rounds (
  -- No default: the insert trigger derives it with game_round_id when the client sends none.
  id uuid primary key,
  session_id uuid not null references public.game_sessions (id) on delete cascade,
  round_number integer not null
    constraint game_rounds_round_number_check check (round_number between 1 and 100),
  question jsonb not null
    constraint game_rounds_question_check check (public.is_game_question_ok(question)),
  -- Filled by the server only once both players answered (see game_round_choices).
  player1_choice text
    constraint game_rounds_player1_choice_check check (char_length(player1_choice) between 1 and 200),
  player2_choice text
    constraint game_rounds_player2_choice_check check (char_length(player2_choice) between 1 and 200),
  -- { "<player id>": "<emoji or short text>" }; each player writes only their own key.
  reactions jsonb not null default '{}'::jsonb
    constraint game_rounds_reactions_check check (jsonb_typeof(reactions) = 'object' and octet_length(reactions::text) <= 1000),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint game_rounds_session_round_key unique (session_id, round_number),
  constraint game_rounds_revealed_together_check check ((player1_choice is null) = (player2_choice is null))
);

comment on table public.game_rounds is
  'One row per (session, round). player1_choice/player2_choice stay empty until both players answered.';

create table public.game_round_choices (
  id uuid primary key default gen_random_uuid(),
  round_id uuid not null references public.game_rounds (id) on delete cascade,
  player_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  choice text not null
    constraint game_round_choices_choice_check check (choice ~ '[^[:space:]]' and char_length(choice) <= 200),
  created_at timestamptz not null default now(),
  constraint game_round_choices_round_player_key unique (round_id, player_id)
);

comment on table public.game_round_choices is
  'Each player''s answer to a round; the other player reads it only once both answered.';

create index game_round_choices_player_idx on public.game_round_choices (player_id, created_at desc);

-- Whether the caller plays in the round's session and both players have answered it. Only ever
-- answers about the caller's own games.
create or replace function public.is_game_round_revealed_to_me(round uuid)
returns boolean
language sql
stable
security definer
set search_path = public, pg_temp
as $$
  select exists (
    select 1
      from public.game_rounds r
      join public.game_sessions s on s.id = r.session_id
     where r.id = round
       and auth.uid() in (s.player1_id, s.player2_id)
       and r.player1_choice is not null and r.player2_choice is not null
  )
$$;
revoke execute on function public.is_game_round_revealed_to_me(uuid) from public, anon;
grant execute on function public.is_game_round_revealed_to_me(uuid) to authenticated, service_role;

alter table public.game_rounds enable row level security;
revoke all on public.game_rounds from anon, authenticated;
grant select, insert, update on public.game_rounds to authenticated;

-- Visibility follows the session (its policy: the two players, still connected).
create policy game_rounds_select_players on public.game_rounds for select to authenticated
  using (exists (select 1 from public.game_sessions s where s.id = game_rounds.session_id));
create policy game_rounds_insert_players on public.game_rounds for insert to authenticated
  with check (exists (select 1 from public.game_sessions s where s.id = game_rounds.session_id));
create policy game_rounds_update_players on public.game_rounds for update to authenticated
  using (exists (select 1 from public.game_sessions s where s.id = game_rounds.session_id))
  with check (exists (select 1 from public.game_sessions s where s.id = game_rounds.session_id));

alter table public.game_round_choices enable row level security;
revoke all on public.game_round_choices from anon, authenticated;
grant select, insert on public.game_round_choices to authenticated;

create policy game_round_choices_select on public.game_round_choices for select to authenticated
  using (player_id = auth.uid() or public.is_game_round_revealed_to_me(round_id));
create policy game_round_choices_insert_own on public.game_round_choices for insert to authenticated
  with check (player_id = auth.uid());
-- No update or delete: an answer is final.

-- Internal: records player's answer to a round (idempotent for the same answer) and returns both
-- answers when both players have answered, else nulls. The caller holds the round row lock.
create or replace function public.record_game_choice(round uuid, player uuid, answer text,
  out choice1 text, out choice2 text)
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  session_row public.game_sessions;
  previous text;
begin
  select s.* into session_row
    from public.game_sessions s join public.game_rounds r on r.session_id = s.id
   where r.id = round;
  if answer is not null then
    select c.choice into previous from public.game_round_choices c
     where c.round_id = round and c.player_id = player;
    if previous is null then
      insert into public.game_round_choices (round_id, player_id, choice) values (round, player, answer);
    elsif previous <> answer then
      raise exception using errcode = '23505', message = 'choice_already_made',
        detail = 'An answer to a round is final.';
    end if;
  end if;
  select c.choice into choice1 from public.game_round_choices c
   where c.round_id = round and c.player_id = session_row.player1_id;
  select c.choice into choice2 from public.game_round_choices c
   where c.round_id = round and c.player_id = session_row.player2_id;
  if choice1 is null or choice2 is null then
    choice1 := null;
    choice2 := null;
  end if;
end;
$$;
revoke execute on function public.record_game_choice(uuid, uuid, text) from public, anon, authenticated;

-- Validates a choice row: the player plays in the round's session, the game is active.
create or replace function public.game_round_choices_before_insert()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  session_row public.game_sessions;
begin
  if auth.role() is not null and auth.role() <> 'service_role' and new.player_id is distinct from auth.uid() then
    raise exception using errcode = '42501', message = 'You can only answer for yourself';
  end if;
  select s.* into session_row
    from public.game_sessions s join public.game_rounds r on r.session_id = s.id
   where r.id = new.round_id;
  if session_row.id is null or new.player_id not in (session_row.player1_id, session_row.player2_id) then
    raise exception using errcode = '42501', message = 'Only the two players answer a round';
  end if;
  if session_row.status <> 'active' then
    raise exception using errcode = 'P0001', message = 'game_not_active';
  end if;
  new.created_at := now();
  return new;
end;
$$;

create trigger game_round_choices_before_insert
  before insert on public.game_round_choices
  for each row execute function public.game_round_choices_before_insert();

-- A choice inserted directly (not through an update of game_rounds): reveal both on the round once
-- both are in. The round row is locked first, so of two concurrent answers the later one sees the
-- earlier (read committed takes a fresh snapshot per statement) and reveals.
create or replace function public.game_round_choices_after_insert()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  revealed record;
begin
  -- Nested in game_rounds_before_update, which reveals by itself.
  if pg_trigger_depth() > 1 then
    return null;
  end if;
  perform 1 from public.game_rounds r where r.id = new.round_id for update;
  select * into revealed from public.record_game_choice(new.round_id, new.player_id, null);
  if revealed.choice1 is not null then
    update public.game_rounds r
       set player1_choice = revealed.choice1, player2_choice = revealed.choice2
     where r.id = new.round_id;
  end if;
  return null;
end;
$$;

create trigger game_round_choices_after_insert
  after insert on public.game_round_choices
  for each row execute function public.game_round_choices_after_insert();

-- Only the caller's own key of reactions may change; the rest is kept from old.
create or replace function public.merge_game_reactions(old_reactions jsonb, new_reactions jsonb, me uuid)
returns jsonb
language plpgsql
immutable
set search_path = pg_catalog
as $$
declare
  mine jsonb := new_reactions -> me::text;
begin
  if mine is not null and jsonb_typeof(mine) <> 'null'
     and (jsonb_typeof(mine) <> 'string' or char_length(mine #>> '{}') not between 1 and 32) then
    raise exception using errcode = '22023', message = 'A reaction is a short text (1 to 32 characters)';
  end if;
  if mine is null or jsonb_typeof(mine) = 'null' then
    return old_reactions - me::text;
  end if;
  return (old_reactions - me::text) || jsonb_build_object(me::text, mine);
end;
$$;

create or replace function public.game_rounds_before_insert()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  me uuid := auth.uid();
  is_service boolean := coalesce(auth.role(), 'service_role') = 'service_role';
  session_row public.game_sessions;
begin
  select s.* into session_row from public.game_sessions s where s.id = new.session_id;
  if session_row.id is null
     or (not is_service and me is distinct from session_row.player1_id and me is distinct from session_row.player2_id) then
    raise exception using errcode = '42501', message = 'Only the two players create rounds';
  end if;
  if session_row.status <> 'active' then
    raise exception using errcode = 'P0001', message = 'game_not_active';
  end if;
  if new.player1_choice is not null or new.player2_choice is not null then
    raise exception using errcode = '42501', message = 'Answer a round after creating it',
      detail = 'A new round has no choices; each player answers through their own choice slot.';
  end if;
  new.id := coalesce(new.id, public.game_round_id(new.session_id, new.round_number));
  new.reactions := case when is_service then new.reactions
                        else public.merge_game_reactions('{}'::jsonb, new.reactions, me) end;
  new.created_at := now();
  new.updated_at := now();
  return new;
end;
$$;

create trigger game_rounds_before_insert
  before insert on public.game_rounds
  for each row execute function public.game_rounds_before_insert();

-- A member's update of a round. Identity columns are fixed and the question stays the first writer's
-- (a second device's upsert of the same round merges instead of replacing). Writing one's own choice
-- slot records the answer in game_round_choices; the slots stay empty until both answered. Writing
-- the other player's slot is refused; an empty or unchanged slot in the payload is ignored, so a
-- stale full-row upsert never erases an answer.
create or replace function public.game_rounds_before_update()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  me uuid := auth.uid();
  is_service boolean := coalesce(auth.role(), 'service_role') = 'service_role';
  session_row public.game_sessions;
  my_slot integer;
  mine text;
  theirs text;
  their_old text;
  revealed record;
begin
  -- The reveal written by game_round_choices_after_insert.
  if pg_trigger_depth() > 1 then
    new.updated_at := now();
    return new;
  end if;
  if new.id <> old.id or new.session_id <> old.session_id or new.round_number <> old.round_number then
    raise exception using errcode = '42501', message = 'A round''s session and number are fixed';
  end if;
  new.question := old.question;
  new.created_at := old.created_at;
  if is_service then
    new.updated_at := now();
    return new;
  end if;

  select s.* into session_row from public.game_sessions s where s.id = old.session_id;
  my_slot := case when session_row.player1_id = me then 1 when session_row.player2_id = me then 2 end;
  if my_slot is null then
    raise exception using errcode = '42501', message = 'Only the two players change a round';
  end if;
  mine := case when my_slot = 1 then new.player1_choice else new.player2_choice end;
  theirs := case when my_slot = 1 then new.player2_choice else new.player1_choice end;
  their_old := case when my_slot = 1 then old.player2_choice else old.player1_choice end;
  if theirs is not null and theirs is distinct from their_old then
    raise exception using errcode = '42501', message = 'You can only write your own choice';
  end if;
  if mine is not null and mine is distinct from (case when my_slot = 1 then old.player1_choice else old.player2_choice end) then
    if session_row.status <> 'active' then
      raise exception using errcode = 'P0001', message = 'game_not_active';
    end if;
    if mine !~ '[^[:space:]]' or char_length(mine) > 200 then
      raise exception using errcode = '23514', message = 'A choice is 1 to 200 characters';
    end if;
    select * into revealed from public.record_game_choice(old.id, me, mine);
    new.player1_choice := revealed.choice1;
    new.player2_choice := revealed.choice2;
  else
    new.player1_choice := old.player1_choice;
    new.player2_choice := old.player2_choice;
  end if;
  new.reactions := public.merge_game_reactions(old.reactions, new.reactions, me);
  new.updated_at := now();
  return new;
end;
$$;

create trigger game_rounds_before_update
  before update on public.game_rounds
  for each row execute function public.game_rounds_before_update();
