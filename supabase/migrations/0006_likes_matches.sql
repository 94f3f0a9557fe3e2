-- Likes: the free daily limit, the mutual like that makes exactly one match and one conversation,
-- received likes and their unread count.

-- Free members may send this many likes in any rolling 24 hours; premium members are unlimited.
create or replace function public.get_daily_like_limit() returns int
language sql immutable as $$ select 50 $$;

create or replace function public.check_like_limit() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  sent int;
begin
  if new.interaction_type <> 'like' then
    return new;
  end if;
  -- The stored time is the server's, so a client cannot backdate likes past the window.
  new.created_at := now();
  if public.is_premium(new.user_id) then
    return new;
  end if;
  -- Serialises one member's likes so two parallel uploads cannot both take the last slot.
  perform pg_advisory_xact_lock(hashtext('like-limit'), hashtext(new.user_id::text));
  select count(*) into sent
  from public.user_interactions ui
  where ui.user_id = new.user_id and ui.interaction_type = 'like' and ui.created_at > now() - interval '24 hours';
  if sent >= public.get_daily_like_limit() then
    raise exception 'daily_like_limit_reached'
      using errcode = 'P0001', hint = 'Free members can send ' || public.get_daily_like_limit() || ' likes a day';
  end if;
  return new;
end;
$$;
revoke execute on function public.check_like_limit() from public, anon, authenticated;
create trigger user_interactions_like_limit before insert on public.user_interactions
  for each row execute function public.check_like_limit();

-- A like answered by a like makes the match and its conversation, once, whatever the order or timing.
create or replace function public.handle_mutual_like() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  low uuid := least(new.user_id, new.target_id);
  high uuid := greatest(new.user_id, new.target_id);
  new_match uuid;
begin
  if new.interaction_type <> 'like' then
    return null;
  end if;
  -- One lock per pair: the second of two simultaneous likes waits here, then (read committed,
  -- fresh snapshot per statement) sees the first like and makes the match.
  perform pg_advisory_xact_lock(hashtext(low::text), hashtext(high::text));
  if not exists (
    select 1 from public.user_interactions ui
    where ui.user_id = new.target_id and ui.target_id = new.user_id and ui.interaction_type = 'like'
  ) or public.is_hidden_pair(new.user_id, new.target_id) then
    return null;
  end if;
  insert into public.matches (user_id_1, user_id_2) values (low, high)
  on conflict (user_id_1, user_id_2) do nothing
  returning id into new_match;
  if new_match is null then
    return null;
  end if;
  insert into public.conversations (match_id, participant1_id, participant2_id) values (new_match, low, high)
  on conflict (participant1_id, participant2_id) do update set match_id = excluded.match_id, updated_at = now();
  return null;
end;
$$;
revoke execute on function public.handle_mutual_like() from public, anon, authenticated;
create trigger user_interactions_mutual_like after insert on public.user_interactions
  for each row execute function public.handle_mutual_like();

-- Likes the caller received and has not answered (no like back, skip, block or report), newest
-- first, with the liker's public fields only.
create or replace function public.get_received_likes(limit_count int default 20, offset_count int default 0)
returns table (
  id uuid,
  liker_id uuid,
  name text,
  age int,
  city text,
  bio text,
  interests text[],
  liker_photos text[],
  is_verified boolean,
  created_at timestamptz
)
language plpgsql stable security definer set search_path = '' as $$
#variable_conflict use_column
declare
  uid uuid := public.get_required_uid();
begin
  if limit_count is null or limit_count < 1 or limit_count > 100 or offset_count is null or offset_count < 0 then
    raise exception 'limit_count must be 1-100 and offset_count 0 or more' using errcode = '22023';
  end if;
  return query
    select ui.id, ui.user_id, pp.name, pp.age, pp.city, pp.bio, pp.interests, pp.photos, pp.is_verified,
      ui.created_at
    from public.user_interactions ui
    join public.public_profiles pp on pp.id = ui.user_id
    where ui.target_id = uid
      and ui.interaction_type = 'like'
      and not exists (select 1 from public.user_interactions back where back.user_id = uid and back.target_id = ui.user_id)
      and not public.is_hidden_pair(uid, ui.user_id)
    order by ui.created_at desc, ui.id
    limit limit_count offset offset_count;
end;
$$;

create or replace function public.get_unread_likes_count() returns int
language plpgsql stable security definer set search_path = '' as $$
declare
  uid uuid := public.get_required_uid();
  seen timestamptz;
begin
  select p.likes_seen_at into seen from public.profiles p where p.id = uid;
  return (
    select count(*)::int
    from public.user_interactions ui
    where ui.target_id = uid
      and ui.interaction_type = 'like'
      and ui.created_at > coalesce(seen, '-infinity'::timestamptz)
      and not exists (select 1 from public.user_interactions back where back.user_id = uid and back.target_id = ui.user_id)
      and not public.is_hidden_pair(uid, ui.user_id)
  );
end;
$$;

create or replace function public.mark_likes_seen() returns timestamptz
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := public.get_required_uid();
begin
  update public.profiles set likes_seen_at = now() where id = uid;
  return now();
end;
$$;
