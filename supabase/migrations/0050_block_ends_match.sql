-- A block or a report ends the pair's match and removes the likes and skips between them, and every match
-- names its conversation, so the sync rules (equality lookups only) can drop the pair's cards,
-- conversation and messages from both members' replicas when the match row goes.

-- The conversation of this match. Sync rules key the conversation bucket on it: when the match row is
-- deleted (unmatch, block, report) the bucket and its messages leave both replicas.
alter table public.matches
  add column conversation_id uuid references public.conversations (id) on delete set null;
create index matches_conversation_idx on public.matches (conversation_id);

update public.matches m set conversation_id = c.id
from public.conversations c
where c.match_id = m.id and m.conversation_id is distinct from c.id;

-- Keeps matches.conversation_id in step with conversations.match_id, whichever path set it (the mutual
-- like makes the conversation, or re-attaches an old one on a rematch), without rewriting that trigger.
create or replace function public.link_match_conversation() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.match_id is not null then
    update public.matches set conversation_id = new.id
    where id = new.match_id and conversation_id is distinct from new.id;
  end if;
  return null;
end;
$$;
revoke execute on function public.link_match_conversation() from public, anon, authenticated;
create trigger conversations_link_match after insert or update of match_id on public.conversations
  for each row execute function public.link_match_conversation();

-- A block or a report (either direction) deletes the pair's match (the conversation keeps its history
-- with match_id null, as on an unmatch) and their likes and skips, so nothing keyed on them syncs any more.
-- Lifting a block does not bring them back: the members would have to like each other again.
-- Security definer: the blocker may not delete the other member's like; search_path pinned.
create or replace function public.end_hidden_pair() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  a uuid;
  b uuid;
begin
  if tg_table_name = 'blocked_users' then
    a := new.blocker_id;
    b := new.blocked_id;
  else
    a := new.reporter_id;
    b := new.reported_id;
  end if;
  -- The mutual-like trigger's pair lock: a like racing this block either made its match before (and it
  -- is deleted here, read committed sees it) or runs after and finds the pair hidden.
  perform pg_advisory_xact_lock(hashtext(least(a, b)::text), hashtext(greatest(a, b)::text));
  delete from public.matches where user_id_1 = least(a, b) and user_id_2 = greatest(a, b);
  delete from public.user_interactions
  where (user_id = a and target_id = b) or (user_id = b and target_id = a);
  return null;
end;
$$;
revoke execute on function public.end_hidden_pair() from public, anon, authenticated;
create trigger blocked_users_end_pair after insert on public.blocked_users
  for each row execute function public.end_hidden_pair();
create trigger reports_end_pair after insert on public.reports
  for each row execute function public.end_hidden_pair();

-- No like or skip across a hidden pair, whoever writes it (the member policy already refuses members). The
-- pair lock closes the race with a block being committed: whichever takes it second sees the other.
-- The error reads like the policy's, so the blocked member learns no more than before.
create or replace function public.refuse_hidden_interaction() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_advisory_xact_lock(hashtext(least(new.user_id, new.target_id)::text),
    hashtext(greatest(new.user_id, new.target_id)::text));
  if public.is_hidden_pair(new.user_id, new.target_id) then
    raise exception 'new row violates row-level security policy for table "user_interactions"'
      using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke execute on function public.refuse_hidden_interaction() from public, anon, authenticated;
-- Named to run before user_interactions_like_limit (before-row triggers fire in name order).
create trigger user_interactions_hidden_pair before insert on public.user_interactions
  for each row execute function public.refuse_hidden_interaction();

-- Pairs already hidden before this migration get the same clean-up.
delete from public.matches m
where exists (
  select 1 from public.blocked_users bu
  where least(bu.blocker_id, bu.blocked_id) = m.user_id_1 and greatest(bu.blocker_id, bu.blocked_id) = m.user_id_2
) or exists (
  select 1 from public.reports r
  where least(r.reporter_id, r.reported_id) = m.user_id_1 and greatest(r.reporter_id, r.reported_id) = m.user_id_2
);
delete from public.user_interactions ui
where exists (
  select 1 from public.blocked_users bu
  where (bu.blocker_id = ui.user_id and bu.blocked_id = ui.target_id)
    or (bu.blocker_id = ui.target_id and bu.blocked_id = ui.user_id)
) or exists (
  select 1 from public.reports r
  where (r.reporter_id = ui.user_id and r.reported_id = ui.target_id)
    or (r.reporter_id = ui.target_id and r.reported_id = ui.user_id)
);
