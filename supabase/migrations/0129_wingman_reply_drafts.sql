-- Medium autonomy drafts replies too (issue 17): when a conversation waits on the member (the last message is
-- the other member's), the member's agent prepares a reply for one-tap send, edit or discard. The text needs a
-- language model (or the built-in coach), so it is written by the wingman-draft function, which the app calls
-- when the member opens that conversation: another member's words reach a model only from a conversation the
-- member opened. This claim holds every rule, whatever the app asks.

-- One first-message draft per conversation (as before) and one reply draft per message answered. The
-- constraint keeps its name, which run_wingman's first drafts name in their ON CONFLICT.
alter table public.agent_drafts
  add column reply_to uuid references public.messages (id) on delete cascade,
  add column reply_key uuid generated always as (
    coalesce(reply_to, '00000000-0000-0000-0000-000000000000'::uuid)) stored;
alter table public.agent_drafts drop constraint agent_drafts_one_per_conversation;
alter table public.agent_drafts add constraint agent_drafts_one_per_conversation
  unique (user_id, conversation_id, reply_key);
comment on table public.agent_drafts is
  'Messages a medium-autonomy agent drafted for its member (issue 17): first messages on new matches (reply_to '
  'null) and replies to the message in reply_to; sent, edited or discarded by the member.';

-- The Wingman's log names reply drafts as such.
alter table public.agent_activity drop constraint agent_activity_kind_check;
alter table public.agent_activity add constraint agent_activity_kind_check
  check (kind in ('like', 'message', 'draft', 'reply'));

-- What the Wingman's AI calls are for; Lovy's answers and drafts share the member's rate and daily answers.
alter table public.ai_usage
  add column purpose text not null default 'lovy' constraint ai_usage_purpose_check check (purpose in ('lovy', 'draft'));

-- Claims the drafting of a reply in `conversation` for `member` (service role only, from wingman-draft).
-- Refused (P0001 with a reason, nothing written) unless: the member's active agent has medium or high autonomy
-- on a paid plan, the Wingman and the account are not paused, the member is in the conversation and the pair
-- is not blocked or reported, the conversation's last message is the other member's text, no draft of that
-- message exists and no other draft waits, and the member is within Lovy's rate and daily answers.
-- Returns what the function needs, and the ai_usage row it opened.
create or replace function public.claim_wingman_reply(
  conversation uuid, member uuid, use_provider text, use_model text)
returns table (reply_to uuid, other_id uuid, agent_id uuid, agent_name text, usage_id uuid)
language plpgsql security definer set search_path = '' as $$
declare
  a record;
  cv record;
  last record;
  premium boolean;
  used int;
begin
  select g.id, g.name, g.autonomy_level into a from public.ai_agents g
   where g.user_id = member and g.is_active;
  if not found or a.autonomy_level not in ('medium', 'high') then
    raise exception 'wingman_reply_not_allowed' using errcode = 'P0001', hint = 'Drafts need medium or high autonomy';
  end if;
  if not coalesce((select p.is_subscribed from public.get_agent_plan_for(member) p), false) then
    raise exception 'wingman_reply_not_allowed' using errcode = 'P0001', hint = 'Drafts need a paid plan';
  end if;
  if exists (select 1 from public.wingman_settings w where w.id = member and w.paused)
     or exists (select 1 from public.profiles p where p.id = member and p.is_paused) then
    raise exception 'wingman_reply_not_allowed' using errcode = 'P0001', hint = 'The Wingman is paused';
  end if;
  select c.id, case when c.participant1_id = member then c.participant2_id else c.participant1_id end as other
    into cv from public.conversations c
   where c.id = conversation and member in (c.participant1_id, c.participant2_id);
  if not found or app_private.is_hidden_pair(member, cv.other) then
    raise exception 'wingman_reply_not_found' using errcode = 'P0002';
  end if;
  perform pg_advisory_xact_lock(hashtext('wingman-reply'), hashtext(member::text));
  select m.id, m.sender_id, m.type into last from public.messages m
   where m.conversation_id = conversation order by m.created_at desc, m.id desc limit 1;
  if not found or last.sender_id = member or last.type <> 'text' then
    raise exception 'wingman_reply_not_waiting' using errcode = 'P0001', hint = 'The conversation is not waiting on you';
  end if;
  if exists (select 1 from public.agent_drafts d where d.user_id = member and d.conversation_id = conversation
             and (d.reply_to = last.id or d.status = 'pending')) then
    raise exception 'wingman_reply_drafted' using errcode = 'P0001', hint = 'A draft exists already';
  end if;
  select coalesce((select e.is_premium from public.get_entitlement(member) e), false) into premium;
  select count(*) into used from public.ai_usage u
   where u.user_id = member and u.created_at > now() - interval '60 seconds' and u.purpose <> 'speech';
  if used >= public.get_lovy_questions_per_minute() then
    raise exception 'lovy_rate_limited' using errcode = 'P0001';
  end if;
  select count(*) into used from public.ai_usage u
   where u.user_id = member and u.created_at > now() - interval '24 hours' and u.outcome <> 'failed'
     and u.purpose <> 'speech';
  if used >= public.get_lovy_daily_answers(premium) then
    raise exception 'lovy_daily_limit' using errcode = 'P0001';
  end if;
  insert into public.ai_usage as u (user_id, provider, model, purpose)
  values (member, use_provider, use_model, 'draft') returning u.id into usage_id;
  reply_to := last.id;
  other_id := cv.other;
  agent_id := a.id;
  agent_name := a.name;
  return next;
end;
$$;
revoke execute on function public.claim_wingman_reply(uuid, uuid, text, text) from public, anon, authenticated;
grant execute on function public.claim_wingman_reply(uuid, uuid, text, text) to service_role;

-- Stores the reply the function wrote and logs it in the member's Wingman activity; false when the message
-- was answered meanwhile (by the member or another draft), in which case nothing is stored.
create or replace function public.store_wingman_reply(
  member uuid, conversation uuid, answered uuid, agent uuid, recipient uuid, draft text)
returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  stored uuid;
begin
  if exists (select 1 from public.messages m where m.conversation_id = conversation
             and m.sender_id = member and (m.created_at, m.id) > (
               select x.created_at, x.id from public.messages x where x.id = answered)) then
    return false;
  end if;
  insert into public.agent_drafts (user_id, agent_id, conversation_id, recipient_id, content, reply_to)
  values (member, agent, conversation, recipient, left(draft, 1000), answered)
  on conflict on constraint agent_drafts_one_per_conversation do nothing
  returning id into stored;
  if stored is null then
    return false;
  end if;
  insert into public.agent_activity (user_id, agent_id, kind, target_id, target_name, reason)
  select member, agent, 'reply', recipient, pp.name,
    'A reply to their last message, waiting in the conversation for you to send, edit or discard'
  from (select 1) one left join public.public_profiles pp on pp.id = recipient;
  return true;
end;
$$;
revoke execute on function public.store_wingman_reply(uuid, uuid, uuid, uuid, uuid, text)
  from public, anon, authenticated;
grant execute on function public.store_wingman_reply(uuid, uuid, uuid, uuid, uuid, text) to service_role;
