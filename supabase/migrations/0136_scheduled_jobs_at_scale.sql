-- The scheduled jobs at scale (issue 21): every pass of the jobs (once a minute per community, decision 0052)
-- read whole tables, and the Wingman served only the same members.
-- - expire_account_pauses filtered profiles on is_paused and pause_end_date, which no index held: each pass
--   read every profile (150-180 ms at 1M members, measured in psql, against 0.3 ms with the index below,
--   which holds only paused members with an end date).
-- - expire_ringing_calls ends calls left active or ringing; only ringing calls had an index, so two of its
--   three statements read every call ever made. The index below holds only the open ones.
-- - run_wingman picked its members from every agent (a sequential read of ai_agents) and always the first
--   max_members of them by member id: in a community with more autonomous agents than one pass serves, the
--   members after the first 100 never had their Wingman act. Now an index holds the autonomous agents, and
--   each pass starts after the member the previous pass ended on (app_private.job_cursors), wrapping around
--   to the first ones, so every member is served in turn. The rest of the function is 0123's, unchanged.
create index if not exists profiles_pause_end_idx on public.profiles (pause_end_date)
  where is_paused and pause_end_date is not null;

create index if not exists video_calls_open_idx on public.video_calls (updated_at)
  where status in ('ringing', 'active');

create index if not exists ai_agents_autonomous_idx on public.ai_agents (user_id)
  where is_active and autonomy_level in ('medium', 'high');

-- Where a scheduled job that works through members in turn stopped last (one row per job). Only the jobs'
-- role reads or writes it.
create table app_private.job_cursors (
  job text primary key,
  after_id uuid not null
);
revoke all on app_private.job_cursors from public, anon, authenticated;
grant select, insert, update on app_private.job_cursors to service_role;

-- One pass of the Wingman for up to max_members members whose active agent has medium or high autonomy, not
-- paused, account not paused or leaving, in turn: from the member after the last pass's last one. Medium (paid
-- plans): drafts the agent's first message on matches made since, for the member to send. High (plans with advanced agents): likes deck candidates at or above the
-- agent's threshold, then writes the agent's first message on matches made since high autonomy began, within
-- the member's caps and the hard caps. Each action runs AS THE MEMBER (role authenticated, their claims), so
-- row-level security and the triggers judge it exactly as a human action; a refused action is skipped.
-- Not security definer (SET ROLE is refused there): it runs with its caller's rights, and only the service
-- role (the scheduler here, pg_cron when hosted) may call it. Returns the number of actions taken.
create or replace function app_private.run_wingman(max_members int default 100) returns int
language plpgsql set search_path = '' as $$
declare
  caller_role text := current_user;
  caller_claims text := current_setting('request.jwt.claims', true);
  pass_size int := greatest(1, least(coalesce(max_members, 100), 1000));
  after_id uuid;
  last_id uuid;
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
  -- Where the last pass stopped: this pass takes the members after it, then wraps around to the first ones.
  -- Each lap reads the autonomous agents' index in member order from its bound, up to the pass's size.
  select jc.after_id into after_id from app_private.job_cursors jc where jc.job = 'run_wingman' for update;
  for m in
    with serving as not materialized (
      select a.user_id, a.id as agent_id, a.name as agent_name, a.auto_match_threshold, a.first_message,
        a.autonomy_since, a.autonomy_level
      from public.ai_agents a
      where a.is_active and a.autonomy_level in ('medium', 'high')
        -- a probe per agent: as a join, a generic plan merged the agents with every profile up to the bound
        and (select not p.is_paused from public.profiles p where p.id = a.user_id)
        and not exists (select 1 from public.wingman_settings w where w.id = a.user_id and w.paused)
        and not exists (select 1 from public.account_deletion_requests d
                        where d.user_id = a.user_id and d.status = 'pending')
    )
    select x.* from (
      (select s0.*, 0 as lap from serving s0
        where s0.user_id > coalesce(after_id, '00000000-0000-0000-0000-000000000000')
        order by s0.user_id limit pass_size)
      union all
      (select s1.*, 1 as lap from serving s1
        where after_id is not null and s1.user_id <= after_id
        order by s1.user_id limit pass_size)
    ) x
    order by x.lap, x.user_id
    limit pass_size
  loop
    last_id := m.user_id;
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
  if last_id is not null then
    insert into app_private.job_cursors (job, after_id) values ('run_wingman', last_id)
    on conflict (job) do update set after_id = excluded.after_id;
  end if;
  return actions;
end;
$$;
revoke execute on function app_private.run_wingman(int) from public, anon, authenticated;
grant execute on function app_private.run_wingman(int) to service_role;
