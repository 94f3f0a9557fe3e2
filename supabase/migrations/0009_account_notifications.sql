-- Account deletion (status, cancel, due-deletion jobs), notifications written by triggers, the
-- security audit log and the newsletter.

-- Deletion ------------------------------------------------------------------------------------

-- The caller's pending deletion, if any (no row when none).
create or replace function public.get_account_deletion_status()
returns table (request_id uuid, scheduled_for timestamptz, requested_at timestamptz, status text)
language plpgsql stable security definer set search_path = '' as $$
#variable_conflict use_column
declare
  uid uuid := public.get_required_uid();
begin
  return query
    select d.id, d.scheduled_for, d.requested_at, d.status
    from public.account_deletion_requests d
    where d.user_id = uid and d.status = 'pending';
end;
$$;

-- Cancels the caller's pending deletion; false when there was none.
create or replace function public.cancel_account_deletion() returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := public.get_required_uid();
begin
  update public.account_deletion_requests set status = 'cancelled', cancelled_at = now()
  where user_id = uid and status = 'pending';
  return found;
end;
$$;

-- Scheduler, step 1 (service role): members whose deletion is due, so the server can remove their
-- stored files before their rows go.
create or replace function public.get_due_account_deletions()
returns table (user_id uuid, request_id uuid, scheduled_for timestamptz)
language sql stable security definer set search_path = '' as $$
  select d.user_id, d.id, d.scheduled_for
  from public.account_deletion_requests d
  where d.status = 'pending' and d.scheduled_for <= now()
  order by d.scheduled_for
$$;

-- Scheduler, step 2 (service role): deletes the auth user of every due request (their rows
-- cascade, including the request itself) and returns their ids. Safe to run twice.
create or replace function public.run_due_account_deletions()
returns table (user_id uuid)
language sql security definer set search_path = '' as $$
  delete from auth.users u
  using public.account_deletion_requests d
  where d.user_id = u.id and d.status = 'pending' and d.scheduled_for <= now()
  returning u.id
$$;

revoke execute on function public.get_due_account_deletions(), public.run_due_account_deletions()
  from public, anon, authenticated;

-- Notifications -------------------------------------------------------------------------------

-- Cuts a message preview to 50 characters followed by "..." (members-area §5).
create or replace function public.get_message_preview(content text) returns text
language sql immutable as $$
  select case when length(content) > 50 then left(content, 50) || '...' else content end
$$;

create or replace function public.notify_like() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.interaction_type = 'like' then
    insert into public.notifications (user_id, type, title, body, link, data)
    values (new.target_id, 'like', 'Someone liked you', 'See who likes you on your Likes page.', '/likes',
      jsonb_build_object('interaction_id', new.id));
  end if;
  return null;
end;
$$;
create trigger user_interactions_notify after insert on public.user_interactions
  for each row execute function public.notify_like();

create or replace function public.notify_match() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  name_1 text := (select pp.name from public.public_profiles pp where pp.id = new.user_id_1);
  name_2 text := (select pp.name from public.public_profiles pp where pp.id = new.user_id_2);
begin
  insert into public.notifications (user_id, type, title, body, link, data) values
    (new.user_id_1, 'match', 'It''s a Match!', 'You and ' || coalesce(name_2, 'someone') || ' liked each other!',
      '/match-list', jsonb_build_object('match_id', new.id, 'other_id', new.user_id_2)),
    (new.user_id_2, 'match', 'It''s a Match!', 'You and ' || coalesce(name_1, 'someone') || ' liked each other!',
      '/match-list', jsonb_build_object('match_id', new.id, 'other_id', new.user_id_1));
  return null;
end;
$$;
create trigger matches_notify after insert on public.matches
  for each row execute function public.notify_match();

create or replace function public.notify_message() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  sender_name text := (select pp.name from public.public_profiles pp where pp.id = new.sender_id);
begin
  -- Call signalling has its own notifications (calls feature); only conversation content here.
  if new.type in ('text', 'image', 'game_invite') then
    insert into public.notifications (user_id, type, title, body, link, data)
    values (new.recipient_id, 'message', 'New message from ' || coalesce(sender_name, 'your match'),
      case when new.type = 'image' then 'Sent a photo' else public.get_message_preview(new.content) end,
      '/messages', jsonb_build_object('conversation_id', new.conversation_id, 'message_id', new.id));
  end if;
  return null;
end;
$$;
create trigger messages_notify after insert on public.messages
  for each row execute function public.notify_message();

revoke execute on function public.notify_like(), public.notify_match(), public.notify_message()
  from public, anon, authenticated;

-- Security events -------------------------------------------------------------------------------

-- Per signed-in member at most this many events a minute, and this many a minute for all
-- anonymous callers together; extra events are dropped (false), never an error.
create or replace function public.get_security_event_limits() returns table (per_member int, anonymous_total int)
language sql immutable as $$ select 60, 600 $$;

create or replace function public.log_security_event(event text, details jsonb default '{}'::jsonb)
returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := auth.uid();
  recent int;
  allowed int;
  lim record;
begin
  if event is null or event !~ '^[a-z][a-z0-9_]{0,63}$' then
    raise exception 'Invalid event name' using errcode = '22023';
  end if;
  details := coalesce(details, '{}'::jsonb);
  if jsonb_typeof(details) <> 'object' or octet_length(details::text) > 2048 then
    raise exception 'Event details must be an object of at most 2048 bytes' using errcode = '22023';
  end if;
  select * into lim from public.get_security_event_limits();
  perform pg_advisory_xact_lock(hashtext('security-events'), hashtext(coalesce(uid::text, 'anon')));
  -- Two plain predicates rather than IS NOT DISTINCT FROM, so security_events_user_idx serves both.
  if uid is null then
    select count(*) into recent from public.security_events s
    where s.user_id is null and s.created_at > now() - interval '1 minute';
  else
    select count(*) into recent from public.security_events s
    where s.user_id = uid and s.created_at > now() - interval '1 minute';
  end if;
  allowed := case when uid is null then lim.anonymous_total else lim.per_member end;
  if recent >= allowed then
    return false;
  end if;
  insert into public.security_events (user_id, event, details) values (uid, event, details);
  return true;
end;
$$;

-- Newsletter ----------------------------------------------------------------------------------

-- Records a consented address; answers true whether or not it was already there, so the form
-- reveals nothing about other subscribers.
create or replace function public.subscribe_newsletter(email text) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  clean text := btrim(email);
begin
  if clean is null or length(clean) > 254 or clean !~ '^[^@\s<>()",;:]+@[^@\s<>()",;:]+\.[^@\s<>()",;:.]+$' then
    raise exception 'Please enter a valid email address.' using errcode = '22023';
  end if;
  insert into public.newsletter_subscribers (email) values (clean)
  on conflict ((lower(newsletter_subscribers.email))) do nothing;
  return true;
end;
$$;
