-- AI agents (the "AI Wingman"): one row per agent, owner-only, with the plan limits of members-area §6/§9
-- enforced here so every path (REST, sync upload, functions) agrees.

create table public.ai_agents (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  name text not null default 'New Agent'
    constraint ai_agents_name_check check (name ~ '[^[:space:]]' and char_length(name) <= 60),
  description text not null default 'Your personal AI dating assistant'
    constraint ai_agents_description_check check (char_length(description) <= 500),
  avatar text
    constraint ai_agents_avatar_check check (char_length(avatar) <= 2048),
  is_active boolean not null default false,
  communication_style text not null default 'casual'
    constraint ai_agents_communication_style_check check (char_length(btrim(communication_style)) between 1 and 40),
  humor_style text not null default 'witty'
    constraint ai_agents_humor_style_check check (char_length(btrim(humor_style)) between 1 and 40),
  autonomy_level text not null default 'medium'
    constraint ai_agents_autonomy_level_check check (autonomy_level in ('low', 'medium', 'high')),
  auto_match_threshold integer not null default 80
    constraint ai_agents_auto_match_threshold_check check (auto_match_threshold between 0 and 100),
  personality_traits text[] not null default '{supportive,helpful}'
    constraint ai_agents_personality_traits_check check (public.is_text_list_ok(personality_traits, 20, 40)),
  interests text[] not null default '{relationships,communication}'
    constraint ai_agents_interests_check check (public.is_text_list_ok(interests, 20, 40)),
  preferred_topics text[] not null default '{}'
    constraint ai_agents_preferred_topics_check check (public.is_text_list_ok(preferred_topics, 20, 60)),
  avoid_topics text[] not null default '{}'
    constraint ai_agents_avoid_topics_check check (public.is_text_list_ok(avoid_topics, 20, 60)),
  system_prompt text not null default 'You are a helpful dating assistant'
    constraint ai_agents_system_prompt_check check (char_length(system_prompt) <= 4000),
  first_message text not null default 'Hi, I''m here to help with your dating journey!'
    constraint ai_agents_first_message_check check (char_length(first_message) <= 1000),
  voice_id text
    constraint ai_agents_voice_id_check check (char_length(voice_id) between 1 and 64),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

comment on table public.ai_agents is
  'A member''s AI dating assistants. Owner only; plan limits and autonomy gating enforced by triggers.';

-- Query paths: the member's agents newest first; the active agent; at most one active per member.
create index ai_agents_user_created_idx on public.ai_agents (user_id, created_at desc);
create unique index ai_agents_one_active_idx on public.ai_agents (user_id) where is_active;

alter table public.ai_agents enable row level security;
revoke all on public.ai_agents from anon, authenticated;
grant select, insert, update, delete on public.ai_agents to authenticated;

create policy ai_agents_select_own on public.ai_agents
  for select to authenticated using (user_id = auth.uid());
create policy ai_agents_insert_own on public.ai_agents
  for insert to authenticated with check (user_id = auth.uid());
create policy ai_agents_update_own on public.ai_agents
  for update to authenticated using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy ai_agents_delete_own on public.ai_agents
  for delete to authenticated using (user_id = auth.uid());

-- The agent plan of a member, from the subscription derivation (get_entitlement):
-- 1 agent for free members and unrecognised tiers, 2 for a tier containing "connector", 5 for "vip";
-- advanced (high autonomy) agents only on connector and vip tiers.
create or replace function public.get_agent_plan_for(uid uuid)
returns table (is_subscribed boolean, agent_limit integer, advanced_agents boolean)
language plpgsql
stable
security definer
set search_path = public, pg_temp
as $$
declare
  subscribed boolean := false;
  tier_name text := '';
begin
  -- "Subscribed" for agent limits means a paid plan that counts now (is_premium): a free plan is
  -- active but grants nothing (members-area §4).
  select coalesce(e.is_premium, false), lower(coalesce(e.tier, ''))
    into subscribed, tier_name
    from public.get_entitlement(uid) as e;
  subscribed := coalesce(subscribed, false);
  tier_name := coalesce(tier_name, '');
  is_subscribed := subscribed;
  if subscribed and position('vip' in tier_name) > 0 then
    agent_limit := 5;
    advanced_agents := true;
  elsif subscribed and position('connector' in tier_name) > 0 then
    agent_limit := 2;
    advanced_agents := true;
  else
    agent_limit := 1;
    advanced_agents := false;
  end if;
  return next;
end;
$$;

-- Internal: it answers for any member, so API roles must not call it directly.
revoke execute on function public.get_agent_plan_for(uuid) from public, anon, authenticated;

-- The caller's own agent plan, for the agent settings screen.
create or replace function public.get_my_agent_plan()
returns table (is_subscribed boolean, agent_limit integer, advanced_agents boolean, agent_count integer)
language plpgsql
stable
security definer
set search_path = public, pg_temp
as $$
declare
  me uuid := public.get_required_uid();
begin
  return query
    select p.is_subscribed, p.agent_limit, p.advanced_agents,
           (select count(*)::integer from public.ai_agents a where a.user_id = me)
      from public.get_agent_plan_for(me) as p;
end;
$$;

revoke execute on function public.get_my_agent_plan() from public, anon;
grant execute on function public.get_my_agent_plan() to authenticated, service_role;

-- Before insert: the plan limit, and the autonomy rules (a non-subscriber's new agent is low; high is
-- forced to low on plans without advanced agents). Serialised per member so two concurrent inserts
-- cannot both squeeze under the limit.
create or replace function public.ai_agents_before_insert()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  plan record;
  existing integer;
begin
  if new.user_id is null then
    raise exception using errcode = '28000', message = 'User not authenticated';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('ai_agents:' || new.user_id::text, 0));
  select * into plan from public.get_agent_plan_for(new.user_id);
  select count(*) into existing from public.ai_agents where user_id = new.user_id;
  if existing >= plan.agent_limit then
    raise exception using
      errcode = 'P0001',
      message = 'agent_limit_reached',
      detail = format('Your plan allows %s AI agent(s).', plan.agent_limit),
      hint = plan.agent_limit::text;
  end if;
  -- Only valid levels are rewritten, so a bad value still meets the check constraint.
  if not plan.is_subscribed and new.autonomy_level in ('medium', 'high') then
    new.autonomy_level := 'low';
  elsif new.autonomy_level = 'high' and not plan.advanced_agents then
    new.autonomy_level := 'low';
  end if;
  new.created_at := now();
  new.updated_at := now();
  return new;
end;
$$;

create trigger ai_agents_before_insert
  before insert on public.ai_agents
  for each row execute function public.ai_agents_before_insert();

create or replace function public.ai_agents_before_update()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
begin
  if new.user_id is distinct from old.user_id then
    raise exception using errcode = '42501', message = 'An agent cannot change owner';
  end if;
  if new.autonomy_level = 'high'
     and not (select p.advanced_agents from public.get_agent_plan_for(new.user_id) p) then
    new.autonomy_level := 'low';
  end if;
  new.created_at := old.created_at;
  new.updated_at := now();
  return new;
end;
$$;

create trigger ai_agents_before_update
  before update on public.ai_agents
  for each row execute function public.ai_agents_before_update();

-- Activating an agent by any path (insert, update, set_active_agent) deactivates the member's others,
-- so "exactly one active" holds even for an offline client that uploads plain row updates.
create or replace function public.ai_agents_keep_one_active()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
begin
  update public.ai_agents
     set is_active = false
   where user_id = new.user_id and is_active and id <> new.id;
  return new;
end;
$$;

create trigger ai_agents_keep_one_active
  before insert or update of is_active on public.ai_agents
  for each row when (new.is_active)
  execute function public.ai_agents_keep_one_active();

-- Makes agent_id the caller's only active agent and returns it. Runs as the caller, so row-level
-- security scopes it to their own agents; someone else's id is "not found".
create or replace function public.set_active_agent(agent_id uuid)
returns public.ai_agents
language plpgsql
volatile
security invoker
set search_path = public, pg_temp
as $$
declare
  me uuid := public.get_required_uid();
  result public.ai_agents;
begin
  -- Lock the member's agents first so two concurrent activations serialise instead of colliding.
  perform 1 from public.ai_agents a where a.user_id = me for update;
  if not exists (select 1 from public.ai_agents a where a.id = set_active_agent.agent_id and a.user_id = me) then
    raise exception using errcode = 'P0002', message = 'agent_not_found';
  end if;
  update public.ai_agents a set is_active = false
   where a.user_id = me and a.is_active and a.id <> set_active_agent.agent_id;
  update public.ai_agents a set is_active = true
   where a.id = set_active_agent.agent_id and a.user_id = me
   returning a.* into result;
  return result;
end;
$$;

revoke execute on function public.set_active_agent(uuid) from public, anon;
grant execute on function public.set_active_agent(uuid) to authenticated, service_role;
