-- Profile rules: the row made at sign-up, name and age checks, the public projection kept in step,
-- and pausing.

-- A profile for every new auth user, named from the sign-up metadata (escaped and trimmed).
create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.profiles (id, name, email)
  values (new.id, left(public.sanitize_name(new.raw_user_meta_data ->> 'name'), 100), new.email)
  on conflict (id) do nothing;
  return new;
end;
$$;
revoke execute on function public.handle_new_user() from public, anon, authenticated;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

create or replace function public.handle_user_email_change() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  update public.profiles set email = new.email where id = new.id;
  return new;
end;
$$;
revoke execute on function public.handle_user_email_change() from public, anon, authenticated;
create trigger on_auth_user_email_changed after update of email on auth.users
  for each row when (old.email is distinct from new.email)
  execute function public.handle_user_email_change();

-- Validation a check constraint cannot express (it depends on today's date).
create or replace function public.check_profile() returns trigger
language plpgsql set search_path = '' as $$
begin
  new.name := left(public.sanitize_name(new.name), 100);
  if new.birthday is not null and new.birthday > (current_date - interval '18 years')::date then
    raise exception 'Members must be at least 18 years old' using errcode = '23514';
  end if;
  if new.is_paused and new.pause_end_date is not null and new.pause_end_date > now() + interval '366 days' then
    raise exception 'Invalid pause duration' using errcode = '23514';
  end if;
  if not new.is_paused then
    new.pause_end_date := null;
  end if;
  return new;
end;
$$;
create trigger profiles_check before insert or update on public.profiles
  for each row execute function public.check_profile();

-- Age from a birthday, in whole years; the date itself never leaves the private row.
create or replace function public.get_age(birthday date) returns int
language sql stable as $$
  select extract(year from age(current_date, birthday))::int
$$;

-- Keeps public_profiles in step: only public fields, first name only, age instead of birthday,
-- last_seen only when the member shows their online status.
create or replace function public.sync_public_profile() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  insert into public.public_profiles as pp (
    id, name, age, gender, photos, bio, interests, career, education_level, languages, height, height_unit,
    relationship_goals, looking_for, city, country, is_verified, last_seen, updated_at)
  values (
    new.id, split_part(coalesce(new.name, ''), ' ', 1), public.get_age(new.birthday), new.gender, new.photos,
    new.bio, new.interests, new.career, new.education_level, new.languages, new.height, new.height_unit,
    new.relationship_goals, new.looking_for, new.city, new.country, new.is_verified,
    case when new.show_online_status then new.last_seen end, now())
  on conflict (id) do update set
    name = excluded.name, age = excluded.age, gender = excluded.gender, photos = excluded.photos,
    bio = excluded.bio, interests = excluded.interests, career = excluded.career,
    education_level = excluded.education_level, languages = excluded.languages, height = excluded.height,
    height_unit = excluded.height_unit, relationship_goals = excluded.relationship_goals,
    looking_for = excluded.looking_for, city = excluded.city, country = excluded.country,
    is_verified = excluded.is_verified, last_seen = excluded.last_seen, updated_at = excluded.updated_at;
  return null;
end;
$$;
revoke execute on function public.sync_public_profile() from public, anon, authenticated;
create trigger profiles_sync_public after insert or update on public.profiles
  for each row execute function public.sync_public_profile();

-- Ages change with the calendar, not with edits: the scheduler calls this daily (service role).
create or replace function public.refresh_public_profile_ages() returns int
language sql security definer set search_path = '' as $$
  with changed as (
    update public.public_profiles pp set age = public.get_age(p.birthday), updated_at = now()
    from public.profiles p
    where p.id = pp.id and pp.age is distinct from public.get_age(p.birthday)
    returning 1
  )
  select count(*)::int from changed
$$;
revoke execute on function public.refresh_public_profile_ages() from public, anon, authenticated;

create policy "public_profiles: members read unless hidden" on public.public_profiles for select
  to authenticated
  using (auth.uid() is not null and not public.is_hidden_pair(id, auth.uid()));

-- Pausing -------------------------------------------------------------------------------------

create or replace function public.get_required_uid() returns uuid
language plpgsql stable set search_path = '' as $$
declare
  uid uuid := auth.uid();
begin
  if uid is null then
    raise exception 'Not authenticated' using errcode = '28000';
  end if;
  return uid;
end;
$$;

create or replace function public.pause_account(duration text) returns timestamptz
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := public.get_required_uid();
  span interval;
  ends timestamptz;
begin
  span := case duration
    when '1-week' then interval '7 days'
    when '1-month' then interval '1 month'
    when '3-months' then interval '3 months'
    when '6-months' then interval '6 months'
    when '1-year' then interval '1 year'
  end;
  if span is null then
    raise exception 'Invalid pause duration' using errcode = '22023';
  end if;
  ends := now() + span;
  update public.profiles set is_paused = true, pause_end_date = ends where id = uid;
  return ends;
end;
$$;

create or replace function public.reactivate_account() returns void
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := public.get_required_uid();
begin
  update public.profiles set is_paused = false, pause_end_date = null where id = uid;
end;
$$;

-- Called at sign-in and app start: ends the caller's pause when its end date has passed.
create or replace function public.reactivate_expired_pause() returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid := public.get_required_uid();
begin
  update public.profiles set is_paused = false, pause_end_date = null
  where id = uid and is_paused and pause_end_date is not null and pause_end_date <= now();
  return found;
end;
$$;

-- Scheduler job (service role): ends every pause whose end date has passed; returns how many.
create or replace function public.expire_account_pauses() returns int
language sql security definer set search_path = '' as $$
  with changed as (
    update public.profiles set is_paused = false, pause_end_date = null
    where is_paused and pause_end_date is not null and pause_end_date <= now()
    returning 1
  )
  select count(*)::int from changed
$$;

-- Anonymous callers keep EXECUTE on the member functions so they get 'Not authenticated', not 42501.
revoke execute on function public.expire_account_pauses() from public, anon, authenticated;
