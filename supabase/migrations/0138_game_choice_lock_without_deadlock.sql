-- Two players answering a round at the same moment could deadlock (seen in CI): each answer's insert into
-- game_round_choices takes a key-share lock on the round row (its foreign-key check), then its after-insert
-- trigger asked for the round row FOR UPDATE, which waits for the other answer's key-share lock, and the other
-- answer's trigger waited for this one's. The trigger only updates non-key columns of the round, so FOR NO KEY
-- UPDATE is the lock it needs: it does not wait for key-share locks, and two answers still take turns on it
-- (the later one, after the earlier commits, sees both choices and reveals them).
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
  perform 1 from public.game_rounds r where r.id = new.round_id for no key update;
  select * into revealed from public.record_game_choice(new.round_id, new.player_id, null);
  if revealed.choice1 is not null then
    update public.game_rounds r
       set player1_choice = revealed.choice1, player2_choice = revealed.choice2
     where r.id = new.round_id;
  end if;
  return null;
end;
$$;
