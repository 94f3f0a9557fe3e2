-- Calls (issue 18): the thread's call messages written by the state machine itself, the rules that end a call
-- (unmatch, block, report, lapsed plan, both sides gone) and the 30-second ring.

-- The message a call step leaves in the pair's conversation (spec §3: video_call_ring, _answer, _decline, _end,
-- _timeout with callId, streamCallId, callType, callerName, callerPhoto). Written here, from the one place the
-- steps happen, so every device and the scheduler leave the same record; the content is a readable fallback,
-- the app renders a call card from the type and metadata. The sender is the member who took the step (the
-- forged-owner rule of 0115 holds); a step by the scheduler is the caller's.
create or replace function app_private.write_call_message(c public.video_calls, kind text, sender uuid)
returns void
language plpgsql security definer set search_path = '' as $$
declare
  conv uuid;
  caller record;
  what text := case when c.call_type = 'audio' then 'audio call' else 'video call' end;
  body text;
begin
  select id into conv from public.conversations
   where participant1_id = least(c.caller_id, c.recipient_id)
     and participant2_id = greatest(c.caller_id, c.recipient_id);
  if conv is null then
    return;
  end if;
  select coalesce(nullif(btrim(p.name), ''), 'A match') as name, p.photos[1] as photo into caller
    from public.profiles p where p.id = c.caller_id;
  body := case kind
    when 'video_call_ring' then upper(left(what, 1)) || substr(what, 2)
    when 'video_call_answer' then 'Answered the ' || what
    when 'video_call_decline' then 'Declined ' || what
    when 'video_call_timeout' then 'Missed ' || what
    else upper(left(what, 1)) || substr(what, 2) || case
      when coalesce(c.duration_seconds, 0) >= 60 then ', ' || (c.duration_seconds / 60) || ' min'
      when coalesce(c.duration_seconds, 0) > 0 then ', ' || c.duration_seconds || ' s'
      else ', not answered' end
  end;
  begin
    insert into public.messages (id, conversation_id, sender_id, recipient_id, content, type, metadata)
    values (
      gen_random_uuid(), conv, sender,
      case when sender = c.caller_id then c.recipient_id else c.caller_id end,
      body, kind,
      jsonb_strip_nulls(jsonb_build_object(
        'callId', c.id, 'streamCallId', c.stream_call_id, 'callType', c.call_type,
        'callerId', c.caller_id, 'callerName', caller.name, 'callerPhoto', caller.photo,
        'durationSeconds', case when kind = 'video_call_end' then c.duration_seconds end,
        'endedBy', case when kind = 'video_call_end' then c.ended_by end))
    );
  exception when others then
    -- The spec: a call's record failing never stops the call (a sender over the message burst limit).
    raise warning 'call message % for call % not written: %', kind, c.id, sqlerrm;
  end;
end;
$$;
revoke execute on function app_private.write_call_message(public.video_calls, text, uuid) from public, anon, authenticated;

create or replace function public.video_calls_write_messages() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  me uuid := auth.uid();
  actor uuid := case when me in (new.caller_id, new.recipient_id) then me else new.caller_id end;
begin
  if tg_op = 'INSERT' then
    perform app_private.write_call_message(new, 'video_call_ring', new.caller_id);
  elsif new.status is distinct from old.status then
    if new.status = 'active' then
      perform app_private.write_call_message(new, 'video_call_answer', new.recipient_id);
    elsif new.status = 'declined' then
      perform app_private.write_call_message(new, 'video_call_decline', new.recipient_id);
    elsif new.status = 'missed' then
      perform app_private.write_call_message(new, 'video_call_timeout', actor);
    elsif new.status = 'ended' then
      perform app_private.write_call_message(new, 'video_call_end', coalesce(new.ended_by, actor));
    end if;
  end if;
  return null;
end;
$$;
revoke execute on function public.video_calls_write_messages() from public, anon, authenticated;
create trigger video_calls_write_messages after insert or update of status on public.video_calls
  for each row execute function public.video_calls_write_messages();

-- Answering is a new decision: a pair that was unmatched, blocked or lost premium while it rang cannot start
-- talking (runs before video_calls_before_update: triggers fire in name order).
create or replace function public.video_calls_answer_allowed() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.status = 'active' and old.status = 'ringing' then
    if not public.are_connected(old.caller_id, old.recipient_id) then
      raise exception using errcode = '42501', message = 'not_connected',
        detail = 'Calls are only between matched members.';
    end if;
    if not public.can_call_between(old.caller_id, old.recipient_id) then
      raise exception using errcode = 'P0001', message = 'premium_required',
        detail = 'Both users must have a premium subscription to start a video call.';
    end if;
  end if;
  return new;
end;
$$;
revoke execute on function public.video_calls_answer_allowed() from public, anon, authenticated;
create trigger video_calls_answer_allowed before update of status on public.video_calls
  for each row execute function public.video_calls_answer_allowed();

-- Ends the pair's ringing and active calls (a ringing one ends unanswered). Runs as whoever caused it: the
-- member who unmatched, blocked or reported is the one who ended it.
create or replace function app_private.end_calls_between(a uuid, b uuid) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  n integer;
begin
  update public.video_calls set status = 'ended'
   where caller_id in (a, b) and recipient_id in (a, b) and status in ('ringing', 'active');
  get diagnostics n = row_count;
  return n;
end;
$$;
revoke execute on function app_private.end_calls_between(uuid, uuid) from public, anon, authenticated;

-- An unmatch, and a block or report (both remove the match, 0050), ends the pair's calls.
create or replace function public.matches_end_calls() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform app_private.end_calls_between(old.user_id_1, old.user_id_2);
  return null;
end;
$$;
revoke execute on function public.matches_end_calls() from public, anon, authenticated;
create trigger matches_end_calls after delete on public.matches
  for each row execute function public.matches_end_calls();

-- A plan that no longer allows calls ends the member's calls at once (the time-based lapse of a plan is caught
-- by the scheduler below).
create or replace function public.enforce_plan_limits(uid uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  plan record;
begin
  select * into plan from public.get_agent_plan_for(uid);
  update public.ai_agents a set autonomy_level = 'low'
   where a.user_id = uid
     and ((not plan.is_subscribed and a.autonomy_level in ('medium', 'high'))
       or (a.autonomy_level = 'high' and not plan.advanced_agents));
  update public.ai_agents a set is_active = false
   where a.user_id = uid and a.is_active and a.id not in (
     select k.id from public.ai_agents k where k.user_id = uid
      order by k.is_active desc, k.created_at desc limit plan.agent_limit);
  update public.video_calls c set status = 'ended'
   where uid in (c.caller_id, c.recipient_id) and c.status in ('ringing', 'active')
     and not public.can_call_between(c.caller_id, c.recipient_id);
end;
$$;
revoke execute on function public.enforce_plan_limits(uuid) from public, anon, authenticated;

-- The scheduler's pass: a call nobody answered within max_age is missed (the spec's 30 seconds; the caller's
-- app also gives up then, this catches a caller who closed it); a call whose pair may no longer call (a plan
-- that ran out) ends; an active call neither side has touched for stale_after ends (the app writes its
-- connection quality every 10 s while a call is up, so this is two closed browsers).
drop function if exists public.expire_ringing_calls(interval);
create or replace function public.expire_ringing_calls(
  max_age interval default interval '30 seconds',
  stale_after interval default interval '90 seconds'
) returns integer
language plpgsql security definer set search_path = '' as $$
declare
  n integer;
  m integer;
  k integer;
begin
  update public.video_calls set status = 'missed'
   where status = 'ringing' and created_at < now() - max_age;
  get diagnostics n = row_count;
  update public.video_calls c set status = 'ended'
   where c.status in ('ringing', 'active') and not public.can_call_between(c.caller_id, c.recipient_id);
  get diagnostics m = row_count;
  update public.video_calls set status = 'ended'
   where status = 'active' and updated_at < now() - stale_after;
  get diagnostics k = row_count;
  return n + m + k;
end;
$$;
revoke execute on function public.expire_ringing_calls(interval, interval) from public, anon, authenticated;
grant execute on function public.expire_ringing_calls(interval, interval) to service_role;
