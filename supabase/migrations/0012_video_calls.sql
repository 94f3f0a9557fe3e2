-- Video calls between matched premium members: the call rows, can_video_call, the state machine
-- (ringing -> active | declined | missed | ended; active -> ended) and the incoming-call notification.

-- Internal: true when a and b are two different members who are matched and neither blocked or
-- reported the other (is_hidden_pair, the same test messaging uses).
create or replace function public.are_connected(a uuid, b uuid)
returns boolean
language sql
stable
security definer
set search_path = public, pg_temp
as $$
  select a is not null and b is not null and a <> b
     and exists (
       select 1 from public.matches m
        where m.user_id_1 = least(a, b) and m.user_id_2 = greatest(a, b)
     )
     and not public.is_hidden_pair(a, b)
$$;

revoke execute on function public.are_connected(uuid, uuid) from public, anon, authenticated;

-- For row-level security: whether the caller is connected with other. It only ever answers about the
-- caller's own relationships, so it is safe to expose.
create or replace function public.is_connected_with(other uuid)
returns boolean
language sql
stable
security definer
set search_path = public, pg_temp
as $$
  select coalesce(public.are_connected(auth.uid(), other), false)
$$;

revoke execute on function public.is_connected_with(uuid) from public, anon;
grant execute on function public.is_connected_with(uuid) to authenticated, service_role;

-- Internal: both members premium, matched and unblocked.
create or replace function public.can_call_between(a uuid, b uuid)
returns boolean
language sql
stable
security definer
set search_path = public, pg_temp
as $$
  select public.are_connected(a, b)
     and coalesce(public.is_premium(a), false)
     and coalesce(public.is_premium(b), false)
$$;

revoke execute on function public.can_call_between(uuid, uuid) from public, anon, authenticated;

-- The spec's RPC. The caller is the session's member: a caller_id that is not auth.uid() is refused
-- (false), never trusted. The service role (functions) may ask about any pair.
create or replace function public.can_video_call(caller_id uuid, recipient_id uuid)
returns boolean
language plpgsql
stable
security definer
set search_path = public, pg_temp
as $$
declare
  me uuid := auth.uid();
begin
  if auth.role() = 'service_role' then
    return coalesce(public.can_call_between($1, $2), false);
  end if;
  if me is null or $1 is distinct from me then
    return false;
  end if;
  return coalesce(public.can_call_between(me, $2), false);
end;
$$;

revoke execute on function public.can_video_call(uuid, uuid) from public, anon;
grant execute on function public.can_video_call(uuid, uuid) to authenticated, service_role;

create table public.video_calls (
  id uuid primary key default gen_random_uuid(),
  caller_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  recipient_id uuid not null references public.profiles (id) on delete cascade,
  status text not null default 'ringing'
    constraint video_calls_status_check check (status in ('ringing', 'active', 'ended', 'declined', 'missed')),
  call_type text not null default 'video'
    constraint video_calls_call_type_check check (call_type in ('video', 'audio')),
  provider text not null default 'getstream'
    constraint video_calls_provider_check check (provider in ('getstream', 'webrtc')),
  stream_call_id text
    constraint video_calls_stream_call_id_check check (char_length(stream_call_id) between 1 and 200),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  answered_at timestamptz,
  ended_at timestamptz,
  ended_by uuid references public.profiles (id) on delete set null,
  duration_seconds integer
    constraint video_calls_duration_check check (duration_seconds >= 0),
  connection_quality text
    constraint video_calls_connection_quality_check check (char_length(connection_quality) between 1 and 32),
  constraint video_calls_two_members_check check (caller_id <> recipient_id)
);

comment on table public.video_calls is
  'Calls between matched premium members; only the two participants see or change a call.';

create index video_calls_caller_created_idx on public.video_calls (caller_id, created_at desc);
create index video_calls_recipient_created_idx on public.video_calls (recipient_id, created_at desc);
create index video_calls_ringing_idx on public.video_calls (created_at) where status = 'ringing';
-- For ON DELETE SET NULL when a member's account goes.
create index video_calls_ended_by_idx on public.video_calls (ended_by) where ended_by is not null;

alter table public.video_calls enable row level security;
revoke all on public.video_calls from anon, authenticated;
grant select, insert, update on public.video_calls to authenticated;

create policy video_calls_select_participants on public.video_calls
  for select to authenticated using (auth.uid() in (caller_id, recipient_id));
create policy video_calls_insert_as_caller on public.video_calls
  for insert to authenticated with check (caller_id = auth.uid());
create policy video_calls_update_participants on public.video_calls
  for update to authenticated
  using (auth.uid() in (caller_id, recipient_id))
  with check (auth.uid() in (caller_id, recipient_id));
-- No delete policy: call history is kept; the rows go with the members' accounts.

create or replace function public.video_calls_before_insert()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
begin
  -- Checked before anything else so a forged caller learns nothing about other members.
  if auth.role() is not null and auth.role() <> 'service_role' and new.caller_id is distinct from auth.uid() then
    raise exception using errcode = '42501', message = 'A call can only be started as yourself';
  end if;
  if new.status <> 'ringing' or new.answered_at is not null or new.ended_at is not null
     or new.ended_by is not null or new.duration_seconds is not null then
    raise exception using errcode = '23514', message = 'A new call starts ringing',
      detail = 'status must be ringing and answered_at, ended_at, ended_by, duration_seconds empty.';
  end if;
  -- Unmatched, blocked and reported pairs get the same answer, so a caller never learns of a block.
  if not public.are_connected(new.caller_id, new.recipient_id) then
    raise exception using errcode = '42501', message = 'not_connected',
      detail = 'Calls are only between matched members.';
  end if;
  if not public.can_call_between(new.caller_id, new.recipient_id) then
    raise exception using errcode = 'P0001', message = 'premium_required',
      detail = 'Both users must have a premium subscription to start a video call.';
  end if;
  new.created_at := now();
  new.updated_at := now();
  return new;
end;
$$;

create trigger video_calls_before_insert
  before insert on public.video_calls
  for each row execute function public.video_calls_before_insert();

-- The state machine. Who may do what: the recipient answers or declines a ringing call; either side
-- ends a ringing or active call (ended_by is the member who did); either side marks a ringing call
-- missed. Timestamps and duration are set here, never taken from the client.
create or replace function public.video_calls_before_update()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  me uuid := auth.uid();
  is_service boolean := coalesce(auth.role(), 'service_role') = 'service_role';
begin
  if new.id <> old.id or new.caller_id <> old.caller_id or new.recipient_id <> old.recipient_id
     or new.call_type <> old.call_type or new.provider <> old.provider or new.created_at <> old.created_at then
    raise exception using errcode = '42501', message = 'The participants, type and provider of a call are fixed';
  end if;
  if new.stream_call_id is distinct from old.stream_call_id
     and (old.stream_call_id is not null or old.status <> 'ringing') then
    raise exception using errcode = '42501', message = 'The provider call id is set once, while ringing';
  end if;

  -- The service role (functions, operators) may correct lifecycle fields without a transition.
  if is_service and new.status = old.status then
    new.updated_at := now();
    return new;
  end if;
  -- Lifecycle fields are never taken from the client; the transition below sets what changes.
  new.answered_at := old.answered_at;
  new.ended_at := old.ended_at;
  new.ended_by := old.ended_by;
  new.duration_seconds := old.duration_seconds;
  if new.status <> old.status then
    if old.status in ('ended', 'declined', 'missed') then
      raise exception using errcode = 'P0001', message = 'call_already_finished';
    end if;
    if new.status = 'active' and old.status = 'ringing' then
      if not is_service and me is distinct from old.recipient_id then
        raise exception using errcode = '42501', message = 'Only the recipient answers a call';
      end if;
      new.answered_at := now();
    elsif new.status = 'declined' and old.status = 'ringing' then
      if not is_service and me is distinct from old.recipient_id then
        raise exception using errcode = '42501', message = 'Only the recipient declines a call';
      end if;
      new.ended_at := now();
      new.ended_by := coalesce(me, old.recipient_id);
      new.duration_seconds := 0;
    elsif new.status = 'missed' and old.status = 'ringing' then
      new.ended_at := now();
      new.ended_by := me;
      new.duration_seconds := 0;
    elsif new.status = 'ended' then
      new.ended_at := now();
      new.ended_by := me;
      new.duration_seconds := case
        when old.answered_at is null then 0
        else greatest(0, floor(extract(epoch from (new.ended_at - old.answered_at))))::integer
      end;
    elsif new.status not in ('ringing', 'active', 'ended', 'declined', 'missed') then
      raise exception using errcode = '23514', message = 'Unknown call status',
        detail = 'status is one of ringing, active, ended, declined, missed.';
    else
      raise exception using errcode = 'P0001', message = 'invalid_call_transition',
        detail = format('A call cannot go from %s to %s.', old.status, new.status);
    end if;
  end if;
  new.updated_at := now();
  return new;
end;
$$;

create trigger video_calls_before_update
  before update on public.video_calls
  for each row execute function public.video_calls_before_update();

-- The recipient hears about an incoming call even when the app is closed.
create or replace function public.video_calls_notify_recipient()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  caller_name text;
begin
  select coalesce(nullif(btrim(p.name), ''), 'A match') into caller_name
    from public.profiles p where p.id = new.caller_id;
  insert into public.notifications (user_id, type, title, body, link, data)
  values (
    new.recipient_id,
    'video_call',
    case when new.call_type = 'audio' then 'Incoming audio call' else 'Incoming video call' end,
    coalesce(caller_name, 'A match') || ' is calling you',
    '/messages',
    jsonb_build_object('callId', new.id, 'callerId', new.caller_id, 'callType', new.call_type,
                       'streamCallId', new.stream_call_id)
  );
  return null;
end;
$$;

create trigger video_calls_notify_recipient
  after insert on public.video_calls
  for each row execute function public.video_calls_notify_recipient();

-- Job: a call nobody answered within max_age becomes missed (the client stops ringing after 30 s;
-- this catches callers who closed the app). Called by the scheduler with the service role.
create or replace function public.expire_ringing_calls(max_age interval default interval '60 seconds')
returns integer
language plpgsql
security definer
set search_path = public, pg_temp
as $$
declare
  n integer;
begin
  update public.video_calls
     set status = 'missed'
   where status = 'ringing' and created_at < now() - max_age;
  get diagnostics n = row_count;
  return n;
end;
$$;
revoke execute on function public.expire_ringing_calls(interval) from public, anon, authenticated;
grant execute on function public.expire_ringing_calls(interval) to service_role;
