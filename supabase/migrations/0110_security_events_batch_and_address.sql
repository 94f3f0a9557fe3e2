-- Security events: a batch call, so the browser sends one request for several events (issue 12), and a cap
-- per network address besides the caps per member and for all anonymous callers (0009), so one address
-- cannot use up the anonymous budget. The address is kept only as a hash.

alter table public.security_events add column if not exists address_hash text;
create index if not exists security_events_address_idx on public.security_events (address_hash, created_at desc);

-- At most this many events a minute from one network address, signed in or not.
create or replace function public.get_security_event_address_limit() returns int
language sql immutable as $$ select 30 $$;

-- The caller's network address, hashed, as the server in front of the database states it: Cloudflare's
-- cf-connecting-ip on hosted Supabase, x-heartsync-client-address from the self-contained server (which
-- sets it from the connection and drops both headers when a client sends them). Null when neither is known.
create or replace function public.get_request_address_hash() returns text
language sql stable set search_path = '' as $$
  select md5(nullif(coalesce(
    nullif(current_setting('request.headers', true), '')::jsonb ->> 'cf-connecting-ip',
    nullif(current_setting('request.headers', true), '')::jsonb ->> 'x-heartsync-client-address'), ''));
$$;

create or replace function public.log_security_event(event text, details jsonb default '{}'::jsonb)
returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := auth.uid();
  address text := public.get_request_address_hash();
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
  if address is not null then
    perform pg_advisory_xact_lock(hashtext('security-events-address'), hashtext(address));
    select count(*) into recent from public.security_events s
    where s.address_hash = address and s.created_at > now() - interval '1 minute';
    if recent >= public.get_security_event_address_limit() then
      return false;
    end if;
  end if;
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
  insert into public.security_events (user_id, event, details, address_hash) values (uid, event, details, address);
  return true;
end;
$$;

-- Several events in one call (at most 20): each is checked and capped as log_security_event does; answers
-- how many were recorded.
create or replace function public.log_security_events(events jsonb)
returns int
language plpgsql security definer set search_path = '' as $$
declare
  e jsonb;
  recorded int := 0;
begin
  if events is null or jsonb_typeof(events) <> 'array' or jsonb_array_length(events) > 20 then
    raise exception 'events must be an array of at most 20 events' using errcode = '22023';
  end if;
  for e in select value from jsonb_array_elements(events) loop
    if jsonb_typeof(e) <> 'object' or jsonb_typeof(e -> 'event') <> 'string' then
      raise exception 'Each event needs an event name' using errcode = '22023';
    end if;
    if public.log_security_event(e ->> 'event', coalesce(e -> 'details', '{}'::jsonb)) then
      recorded := recorded + 1;
    end if;
  end loop;
  return recorded;
end;
$$;

revoke all on function public.log_security_events(jsonb) from public;
grant execute on function public.log_security_events(jsonb) to anon, authenticated;
revoke all on function public.get_request_address_hash() from public;
