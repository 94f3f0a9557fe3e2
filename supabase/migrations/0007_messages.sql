-- Message rules beyond the policies of 0003: server time, burst and first-message rate limits,
-- forward-only delivery status, and the conversation's last_message_at.

-- At most this many messages per member in any 60 seconds.
create or replace function public.get_message_burst_limit() returns int
language sql immutable as $$ select 30 $$;
-- At most this many conversations opened (a member's first message in it) per rolling 24 hours.
create or replace function public.get_new_conversation_limit() returns int
language sql immutable as $$ select 20 $$;

create or replace function public.check_message_insert() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  recent int;
begin
  -- A retried upload of an existing id must end in 23505 (counted as applied), not a rate limit.
  if exists (select 1 from public.messages m where m.id = new.id) then
    return new;
  end if;
  new.created_at := now();
  new.status := 'sent';
  new.delivered_at := null;
  new.read_at := null;
  perform pg_advisory_xact_lock(hashtext('messages'), hashtext(new.sender_id::text));
  select count(*) into recent from public.messages m
  where m.sender_id = new.sender_id and m.created_at > now() - interval '60 seconds';
  if recent >= public.get_message_burst_limit() then
    raise exception 'message_rate_limited' using errcode = 'P0001',
      hint = 'At most ' || public.get_message_burst_limit() || ' messages a minute';
  end if;
  if not exists (
    select 1 from public.messages m where m.conversation_id = new.conversation_id and m.sender_id = new.sender_id
  ) then
    select count(distinct m.conversation_id) into recent
    from public.messages m
    where m.sender_id = new.sender_id
      and m.created_at > now() - interval '24 hours'
      and not exists (
        select 1 from public.messages earlier
        where earlier.conversation_id = m.conversation_id and earlier.sender_id = m.sender_id
          and earlier.created_at < now() - interval '24 hours');
    if recent >= public.get_new_conversation_limit() then
      raise exception 'new_conversation_rate_limited' using errcode = 'P0001',
        hint = 'At most ' || public.get_new_conversation_limit() || ' new conversations a day';
    end if;
  end if;
  return new;
end;
$$;
revoke execute on function public.check_message_insert() from public, anon, authenticated;
create trigger messages_check_insert before insert on public.messages
  for each row execute function public.check_message_insert();

create or replace function public.touch_conversation() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.conversations set last_message_at = new.created_at
  where id = new.conversation_id and (last_message_at is null or last_message_at < new.created_at);
  return null;
end;
$$;
revoke execute on function public.touch_conversation() from public, anon, authenticated;
create trigger messages_touch_conversation after insert on public.messages
  for each row execute function public.touch_conversation();

-- Status only moves forward (sent -> delivered -> read); an older update arriving late is ignored
-- rather than refused, since offline devices upload in their own order. Timestamps are the server's.
create or replace function public.check_message_update() returns trigger
language plpgsql set search_path = '' as $$
declare
  rank_old int := array_position(array['sent', 'delivered', 'read'], old.status);
  rank_new int := array_position(array['sent', 'delivered', 'read'], new.status);
begin
  if rank_new < rank_old then
    new.status := old.status;
  end if;
  new.delivered_at := case when new.status in ('delivered', 'read') then coalesce(old.delivered_at, now()) end;
  new.read_at := case when new.status = 'read' then coalesce(old.read_at, now()) end;
  return new;
end;
$$;
create trigger messages_check_update before update on public.messages
  for each row execute function public.check_message_update();

-- Messages the caller has received and not read yet, per conversation.
create or replace function public.get_unread_message_counts()
returns table (conversation_id uuid, unread int)
language sql stable security invoker set search_path = '' as $$
  select m.conversation_id, count(*)::int
  from public.messages m
  where m.recipient_id = auth.uid() and m.status <> 'read'
  group by m.conversation_id
$$;
