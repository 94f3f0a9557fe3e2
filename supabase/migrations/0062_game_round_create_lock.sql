-- Same-round creation by both players at one moment: a client's upload is an upsert on the round's
-- deterministic id, but ON CONFLICT (id) arbitrates only the id, so the loser of a race on the
-- (session_id, round_number) unique key could get 23505 for a valid upload. The insert trigger now
-- serialises creators of one round with a transaction-level advisory lock; BEFORE triggers run before
-- ON CONFLICT's check, so the second creator sees the first's committed row and takes the update path.

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
  -- Two devices creating the same round at once: the second waits here until the first commits, so its
  -- upsert then finds the round by id and merges (ON CONFLICT (id) cannot arbitrate the other unique key).
  perform pg_advisory_xact_lock(hashtextextended('game_round:' || new.session_id::text || ':' || new.round_number, 0));
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
