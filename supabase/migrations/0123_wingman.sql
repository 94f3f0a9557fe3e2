-- The Wingman (issue 17): what a high-autonomy agent may do for its member, done by a scheduled job that acts
-- as the member, so every rule a human action meets (row-level security, hidden pairs, the like limit, the
-- message rate limits, the match trigger) applies to the agent too. The member's switches and caps, and the
-- activity log of every action with its reason, sync to the member's replica.

-- The hard caps: whatever a member sets, an agent never likes or messages more in any rolling 24 hours.
create function public.get_wingman_hard_like_cap() returns int language sql immutable as $$ select 25 $$;
create function public.get_wingman_hard_message_cap() returns int language sql immutable as $$ select 10 $$;

-- One row per member (the id is the member's), made by the member's device when a switch is first changed;
-- a member without a row has the defaults.
create table public.wingman_settings (
  id uuid primary key default auth.uid() references public.profiles (id) on delete cascade,
  -- Stops every agent action at once.
  paused boolean not null default false,
  daily_like_cap int not null default 10
    constraint wingman_settings_like_cap_check check (daily_like_cap between 0 and 25),
  daily_message_cap int not null default 5
    constraint wingman_settings_message_cap_check check (daily_message_cap between 0 and 10),
  -- As a recipient: whether other members' agents may send this member their first message.
  accept_agent_messages boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.wingman_settings is
  'A member''s Wingman switches: pause, daily caps (hard caps in get_wingman_hard_*_cap), and whether other members'' agents may write to them.';

alter table public.wingman_settings enable row level security;
revoke all on public.wingman_settings from anon, authenticated;
grant select, insert, delete on public.wingman_settings to authenticated;
grant update (paused, daily_like_cap, daily_message_cap, accept_agent_messages, updated_at)
  on public.wingman_settings to authenticated;
create policy wingman_settings_own on public.wingman_settings for all to authenticated
  using (id = auth.uid()) with check (id = auth.uid());
create trigger wingman_settings_set_updated_at before update on public.wingman_settings
  for each row execute function public.set_updated_at();

-- When the agent was last given medium or high autonomy: it drafts or writes first messages only on matches
-- made since (never on conversations the member left alone before).
alter table public.ai_agents add column autonomy_since timestamptz;
update public.ai_agents set autonomy_since = updated_at where autonomy_level in ('medium', 'high');

create function app_private.ai_agents_track_autonomy() returns trigger
language plpgsql set search_path = '' as $$
begin
  if tg_op = 'INSERT' or new.autonomy_level is distinct from old.autonomy_level then
    new.autonomy_since := case when new.autonomy_level in ('medium', 'high') then now() end;
  else
    new.autonomy_since := old.autonomy_since;
  end if;
  return new;
end;
$$;
-- Named to run after ai_agents_before_insert/update (triggers fire in name order), which may lower the level.
create trigger ai_agents_track_autonomy before insert or update on public.ai_agents
  for each row execute function app_private.ai_agents_track_autonomy();

-- Every Wingman action, with its reason: the member reads it; only the job and undo write it.
create table public.agent_activity (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  agent_id uuid references public.ai_agents (id) on delete set null,
  kind text not null constraint agent_activity_kind_check check (kind in ('like', 'message', 'draft')),
  -- The other member the action concerns.
  target_id uuid references public.profiles (id) on delete cascade,
  -- Their public first name when the agent acted (the log still says whom after an undo or unmatch).
  target_name text constraint agent_activity_target_name_check check (char_length(target_name) <= 100),
  interaction_id uuid,
  message_id uuid,
  reason text not null constraint agent_activity_reason_check check (char_length(reason) between 1 and 300),
  status text not null default 'done' constraint agent_activity_status_check check (status in ('done', 'undone')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
comment on table public.agent_activity is
  'What a member''s Wingman did for them and why (issue 17). Owner reads; the job and undo_agent_action write.';
create index agent_activity_user_created_idx on public.agent_activity (user_id, created_at desc);
alter table public.agent_activity enable row level security;
revoke all on public.agent_activity from anon, authenticated;
grant select on public.agent_activity to authenticated;
create policy agent_activity_select_own on public.agent_activity for select to authenticated
  using (user_id = auth.uid());

-- Drafts a medium-autonomy agent prepares: the first message of a new match, waiting in the thread for the
-- member to send as it is, edit or discard. Written by the job; the member only moves its status.
create table public.agent_drafts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  agent_id uuid references public.ai_agents (id) on delete set null,
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  recipient_id uuid not null references public.profiles (id) on delete cascade,
  content text not null constraint agent_drafts_content_check check (char_length(content) between 1 and 1000),
  status text not null default 'pending'
    constraint agent_drafts_status_check check (status in ('pending', 'sent', 'edited', 'discarded')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint agent_drafts_one_per_conversation unique (user_id, conversation_id)
);
comment on table public.agent_drafts is
  'First messages a medium-autonomy agent drafted for its member (issue 17): sent, edited or discarded by the member.';
alter table public.agent_drafts enable row level security;
revoke all on public.agent_drafts from anon, authenticated;
grant select on public.agent_drafts to authenticated;
grant update (status, updated_at) on public.agent_drafts to authenticated;
create policy agent_drafts_select_own on public.agent_drafts for select to authenticated
  using (user_id = auth.uid());
create policy agent_drafts_update_own on public.agent_drafts for update to authenticated
  using (user_id = auth.uid() and status = 'pending') with check (user_id = auth.uid());
create trigger agent_drafts_set_updated_at before update on public.agent_drafts
  for each row execute function public.set_updated_at();

-- Thumbs up or down on a draft or a conversation starter: fewer of what the member turns down.
create table public.agent_feedback (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  subject text not null constraint agent_feedback_subject_check check (subject in ('draft', 'starter')),
  -- The draft's id, or the starter's topic (an interest, lower case).
  subject_ref text not null constraint agent_feedback_ref_check check (char_length(subject_ref) between 1 and 100),
  rating text not null constraint agent_feedback_rating_check check (rating in ('up', 'down')),
  created_at timestamptz not null default now(),
  constraint agent_feedback_once unique (user_id, subject, subject_ref)
);
comment on table public.agent_feedback is 'A member''s thumbs on their Wingman''s drafts and starters (issue 17).';
alter table public.agent_feedback enable row level security;
revoke all on public.agent_feedback from anon, authenticated;
grant select, insert, delete on public.agent_feedback to authenticated;
grant update (rating) on public.agent_feedback to authenticated;
create policy agent_feedback_own on public.agent_feedback for all to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());

-- Undo where undo is possible: a like the agent sent that has not made a match.
create function public.undo_agent_action(activity_id uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := public.get_required_uid();
  a public.agent_activity;
begin
  select * into a from public.agent_activity where id = activity_id and user_id = me for update;
  if not found then
    raise exception 'agent_action_not_found' using errcode = 'P0002', hint = 'This action is not in your Wingman log';
  end if;
  if a.status = 'undone' then
    return;
  end if;
  if a.kind <> 'like' then
    raise exception 'agent_action_not_undoable' using errcode = 'P0001', hint = 'A sent message cannot be undone';
  end if;
  if exists (select 1 from public.matches m
             where m.user_id_1 = least(me, a.target_id) and m.user_id_2 = greatest(me, a.target_id)) then
    raise exception 'agent_action_not_undoable' using errcode = 'P0001',
      hint = 'This like already made a match: unmatch instead';
  end if;
  delete from public.user_interactions where id = a.interaction_id and user_id = me;
  update public.agent_activity set status = 'undone', updated_at = now() where id = a.id;
end;
$$;
revoke execute on function public.undo_agent_action(uuid) from public, anon;
grant execute on function public.undo_agent_action(uuid) to authenticated;

-- The marking every agent-written message carries (EU AI Act Art. 50: machine-readable, shown to both).
create function public.get_agent_message_marking(agent_name text) returns jsonb
language sql immutable as $$
  select jsonb_build_object('ai', jsonb_build_object(
    'generated', true, 'by', 'agent', 'agent_name', agent_name, 'disclosure', 'written with AI help'))
$$;

-- One pass of the Wingman for up to max_members members whose active agent has medium or high autonomy, not
-- paused, account not paused or leaving. Medium (paid plans): drafts the agent's first message on matches made
-- since, for the member to send. High (plans with advanced agents): likes deck candidates at or above the
-- agent's threshold, then writes the agent's first message on matches made since high autonomy began, within
-- the member's caps and the hard caps. Each action runs AS THE MEMBER (role authenticated, their claims), so
-- row-level security and the triggers judge it exactly as a human action; a refused action is skipped.
-- Not security definer (SET ROLE is refused there): it runs with its caller's rights, and only the service
-- role (the scheduler here, pg_cron when hosted) may call it. Returns the number of actions taken.
create function app_private.run_wingman(max_members int default 100) returns int
language plpgsql set search_path = '' as $$
declare
  caller_role text := current_user;
  caller_claims text := current_setting('request.jwt.claims', true);
  m record;
  c record;
  s public.wingman_settings;
  like_cap int;
  message_cap int;
  likes_left int;
  messages_left int;
  new_id uuid;
  new_count int;
  actions int := 0;
begin
  for m in
    select a.user_id, a.id as agent_id, a.name as agent_name, a.auto_match_threshold, a.first_message,
      a.autonomy_since, a.autonomy_level
    from public.ai_agents a
    join public.profiles p on p.id = a.user_id
    where a.is_active and a.autonomy_level in ('medium', 'high')
      and not p.is_paused
      and not exists (select 1 from public.wingman_settings w where w.id = a.user_id and w.paused)
      and not exists (select 1 from public.account_deletion_requests d
                      where d.user_id = a.user_id and d.status = 'pending')
    order by a.user_id
    limit greatest(1, least(coalesce(max_members, 100), 1000))
  loop
    -- Medium autonomy drafts; the job writes the draft itself (nothing reaches the other member), on matches
    -- made since medium began and never across a block or report. A lapsed plan stops drafting too.
    if m.autonomy_level = 'medium' then
      if coalesce((select p.is_subscribed from public.get_agent_plan_for(m.user_id) p), false)
         and m.autonomy_since is not null then
        with drafted as (
          insert into public.agent_drafts (user_id, agent_id, conversation_id, recipient_id, content)
          select m.user_id, m.agent_id, cv.id,
            case when cv.participant1_id = m.user_id then cv.participant2_id else cv.participant1_id end,
            m.first_message
          from public.matches mt
          join public.conversations cv on cv.match_id = mt.id
          where (mt.user_id_1 = m.user_id or mt.user_id_2 = m.user_id)
            and mt.created_at >= m.autonomy_since
            and not exists (select 1 from public.messages x where x.conversation_id = cv.id)
            and not app_private.is_hidden_pair(mt.user_id_1, mt.user_id_2)
          on conflict on constraint agent_drafts_one_per_conversation do nothing
          returning recipient_id
        )
        insert into public.agent_activity (user_id, agent_id, kind, target_id, target_name, reason)
        select m.user_id, m.agent_id, 'draft', d.recipient_id, pp.name,
          'A first message for your new match, waiting in the conversation for you to send, edit or discard'
        from drafted d left join public.public_profiles pp on pp.id = d.recipient_id;
        get diagnostics new_count = row_count;
        actions := actions + new_count;
      end if;
      continue;
    end if;
    -- A plan that lapsed (or was revoked) stops high-autonomy work, whatever the agent row still says.
    if not coalesce((select p.advanced_agents from public.get_agent_plan_for(m.user_id) p), false) then
      continue;
    end if;
    select * into s from public.wingman_settings where id = m.user_id;
    like_cap := least(coalesce(s.daily_like_cap, 10), public.get_wingman_hard_like_cap());
    message_cap := least(coalesce(s.daily_message_cap, 5), public.get_wingman_hard_message_cap());
    likes_left := like_cap - (select count(*) from public.agent_activity g
      where g.user_id = m.user_id and g.kind = 'like' and g.created_at > now() - interval '24 hours');
    messages_left := message_cap - (select count(*) from public.agent_activity g
      where g.user_id = m.user_id and g.kind = 'message' and g.created_at > now() - interval '24 hours');

    -- The member's claims for the whole member (auth.uid() is theirs); the role only around their writes.
    perform set_config('request.jwt.claims',
      json_build_object('sub', m.user_id, 'role', 'authenticated', 'aud', 'authenticated')::text, true);

    -- Likes: the member's own deck (who they may see and who may see them), best first.
    if likes_left > 0 then
      for c in
        select d.id, d.name, d.compatibility_score from public.get_discovery_candidates(30) d
        where d.compatibility_score >= m.auto_match_threshold
          -- never twice for the same member: a like the member undid stays undone
          and not exists (select 1 from public.agent_activity g
                          where g.user_id = m.user_id and g.kind = 'like' and g.target_id = d.id)
        order by d.compatibility_score desc
        limit likes_left
      loop
        begin
          new_id := gen_random_uuid();
          perform set_config('role', 'authenticated', true);
          insert into public.user_interactions (id, user_id, target_id, interaction_type)
          values (new_id, m.user_id, c.id, 'like');
          -- The log is written with the job's own rights (members cannot write it), then back to the member.
          perform set_config('role', caller_role, true);
          insert into public.agent_activity (user_id, agent_id, kind, target_id, target_name, interaction_id, reason)
          values (m.user_id, m.agent_id, 'like', c.id, c.name, new_id,
            format('%s%% compatible, at or above your threshold of %s%%', c.compatibility_score,
              m.auto_match_threshold));
          actions := actions + 1;
        exception when others then
          -- Refused as a human's like would be (the daily limit, a block made meanwhile): no more likes now.
          exit;
        end;
      end loop;
    end if;

    -- First messages: matches made since high autonomy began where nobody has written yet, to members who
    -- accept agents' first messages and are not paused or leaving.
    if messages_left > 0 and m.autonomy_since is not null then
      for c in
        select cv.id as conversation_id, o.id as other, pp.name as other_name
        from public.matches mt
        join public.conversations cv on cv.match_id = mt.id
        cross join lateral (select case when cv.participant1_id = m.user_id then cv.participant2_id
                                        else cv.participant1_id end as id) o
        left join public.public_profiles pp on pp.id = o.id
        where (mt.user_id_1 = m.user_id or mt.user_id_2 = m.user_id)
          and mt.created_at >= m.autonomy_since
          and not exists (select 1 from public.messages x where x.conversation_id = cv.id)
        order by mt.created_at
      loop
        exit when messages_left <= 0;
        continue when exists (select 1 from public.wingman_settings w
                              where w.id = c.other and not w.accept_agent_messages)
          or exists (select 1 from public.profiles p where p.id = c.other and p.is_paused)
          or exists (select 1 from public.account_deletion_requests d
                     where d.user_id = c.other and d.status = 'pending');
        begin
          new_id := gen_random_uuid();
          perform set_config('role', 'authenticated', true);
          insert into public.messages (id, conversation_id, sender_id, recipient_id, content, type, metadata)
          values (new_id, c.conversation_id, m.user_id, c.other, m.first_message, 'text',
            public.get_agent_message_marking(m.agent_name));
          perform set_config('role', caller_role, true);
          insert into public.agent_activity (user_id, agent_id, kind, target_id, target_name, message_id, reason)
          values (m.user_id, m.agent_id, 'message', c.other, c.other_name, new_id,
            'Your agent''s first message on a new match');
          actions := actions + 1;
          messages_left := messages_left - 1;
        exception when others then
          -- Refused as a human's message would be (a block, a rate limit): the next pass may try again.
          null;
        end;
      end loop;
    end if;

    perform set_config('request.jwt.claims', coalesce(caller_claims, ''), true);
  end loop;
  return actions;
end;
$$;
revoke execute on function app_private.run_wingman(int) from public, anon, authenticated;
grant execute on function app_private.run_wingman(int) to service_role;
