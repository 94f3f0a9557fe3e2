-- What a member may write into their own profile beyond its checks (issue 13). Only a member's own writes
-- (role authenticated) are held to it; the operator, seeds and jobs write as themselves.
--  * Location: a place of the offline city list, on its grid cell (0113), never free coordinates: with
--    free coordinates anyone could move around another member and read distance bands until that member
--    sat in one 11 km cell. A city is what every member shows anyway. At most 5 moves a day.
--  * last_seen: never in the future (a member set it to 2099 to be "online" and first in every pool).
--  * photos: only the member's own stored photos, never another member's object or an outside URL.

create table public.member_location_changes (
  user_id uuid not null references public.profiles (id) on delete cascade,
  changed_at timestamptz not null default now()
);
create index member_location_changes_user_idx on public.member_location_changes (user_id, changed_at);
alter table public.member_location_changes enable row level security;
revoke all on public.member_location_changes from public, anon, authenticated;

create or replace function public.get_location_changes_per_day() returns int
language sql immutable as $$ select 5 $$;

create or replace function public.check_member_profile_write() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  moves int;
  photo text;
begin
  if auth.role() is distinct from 'authenticated' then
    return new;
  end if;

  if new.location_lat is not null
     and (tg_op = 'INSERT' or new.location_lat is distinct from old.location_lat
          or new.location_lng is distinct from old.location_lng) then
    if not exists (
      select 1 from public.listed_city_cells c
       where c.lat10 = round(new.location_lat * 10) and c.lng10 = round(new.location_lng * 10)) then
      raise exception 'Please pick your city from the list.' using errcode = '23514';
    end if;
    select count(*) into moves from public.member_location_changes m
     where m.user_id = new.id and m.changed_at > now() - interval '1 day';
    if moves >= public.get_location_changes_per_day() then
      raise exception 'You can change your city up to % times a day. Please try again tomorrow.',
        public.get_location_changes_per_day() using errcode = '23514';
    end if;
    insert into public.member_location_changes (user_id) values (new.id);
    delete from public.member_location_changes m
     where m.user_id = new.id and m.changed_at < now() - interval '2 days';
  end if;

  if new.last_seen is not null and new.last_seen > now() then
    new.last_seen := now();
  end if;

  foreach photo in array coalesce(new.photos, '{}') loop
    continue when tg_op = 'UPDATE' and photo = any (coalesce(old.photos, '{}'));
    if photo not like new.id::text || '/%' or not exists (
      select 1 from storage.objects o where o.bucket_id = 'profile-photos' and o.name = photo) then
      raise exception 'Photos must be ones you uploaded.' using errcode = '23514';
    end if;
  end loop;
  return new;
end;
$$;
revoke execute on function public.check_member_profile_write() from public, anon, authenticated;
create trigger profiles_member_integrity before insert or update on public.profiles
  for each row execute function public.check_member_profile_write();
