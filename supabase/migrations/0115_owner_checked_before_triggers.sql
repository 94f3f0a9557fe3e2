-- A forged owner is refused before any other trigger runs (issue 13). BEFORE triggers run before the
-- row-level security check of an insert, so a member inserting a row in another member's name used to be
-- answered by that member's rate or plan limit ("message_rate_limited", likes today, agent count): a leak of
-- their state. This trigger fires first (triggers fire in name order; "a0_" sorts before every other
-- name here) and answers exactly as the policy would: 42501, row-level security.
create or replace function public.refuse_forged_owner() returns trigger
language plpgsql set search_path = '' as $$
begin
  if auth.role() = 'authenticated'
     and (to_jsonb(new) ->> tg_argv[0]) is distinct from auth.uid()::text then
    raise exception 'new row violates row-level security policy for table "%"', tg_table_name
      using errcode = '42501';
  end if;
  return new;
end;
$$;

create trigger a0_owner_is_caller before insert on public.messages
  for each row execute function public.refuse_forged_owner('sender_id');
create trigger a0_owner_is_caller before insert on public.user_interactions
  for each row execute function public.refuse_forged_owner('user_id');
create trigger a0_owner_is_caller before insert on public.ai_agents
  for each row execute function public.refuse_forged_owner('user_id');
create trigger a0_owner_is_caller before insert on public.lovy_messages
  for each row execute function public.refuse_forged_owner('user_id');
create trigger a0_owner_is_caller before insert on public.video_calls
  for each row execute function public.refuse_forged_owner('caller_id');
create trigger a0_owner_is_caller before insert on public.game_sessions
  for each row execute function public.refuse_forged_owner('player1_id');
create trigger a0_owner_is_caller before insert on public.game_round_choices
  for each row execute function public.refuse_forged_owner('player_id');
create trigger a0_owner_is_caller before insert on public.profile_answers
  for each row execute function public.refuse_forged_owner('user_id');
