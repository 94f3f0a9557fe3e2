-- The likes badge is counted on the member's replica and "seen" is a replica write (decision 0109): the device
-- writes profiles.likes_seen_at (a column members could always update, 0001) and the upload queue sends it.
--
-- A device's clock may run ahead, and a device that was offline may upload an older "seen" after a newer one
-- from another device: the server keeps the later of the two, never later than its own now(), so a like that
-- arrives afterwards is still new and a badge already cleared never comes back.
create or replace function public.keep_likes_seen_at() returns trigger
language plpgsql set search_path = '' as $$
begin
  -- greatest() and least() pass over a null: a null sent keeps the value there.
  new.likes_seen_at := greatest(
    old.likes_seen_at, case when new.likes_seen_at is not null then least(new.likes_seen_at, now()) end);
  return new;
end;
$$;
revoke execute on function public.keep_likes_seen_at() from public, anon, authenticated;
create trigger profiles_keep_likes_seen_at before update of likes_seen_at on public.profiles
  for each row when (new.likes_seen_at is distinct from old.likes_seen_at)
  execute function public.keep_likes_seen_at();

-- A member's public card is rewritten only when something on it changes. Until now every update of the private
-- row (a "seen" like this one, last_seen once a minute while online with the online status hidden, a new zip
-- code) rewrote the card with a new updated_at, and the sync service sent it again to every member who holds it
-- (matches, likers, likes sent): one sync op per holder for nothing they could see.
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
    is_verified = excluded.is_verified, last_seen = excluded.last_seen, updated_at = excluded.updated_at
  where (pp.name, pp.age, pp.gender, pp.photos, pp.bio, pp.interests, pp.career, pp.education_level,
         pp.languages, pp.height, pp.height_unit, pp.relationship_goals, pp.looking_for, pp.city, pp.country,
         pp.is_verified, pp.last_seen)
        is distinct from
        (excluded.name, excluded.age, excluded.gender, excluded.photos, excluded.bio, excluded.interests,
         excluded.career, excluded.education_level, excluded.languages, excluded.height, excluded.height_unit,
         excluded.relationship_goals, excluded.looking_for, excluded.city, excluded.country, excluded.is_verified,
         excluded.last_seen);
  return null;
end;
$$;
revoke execute on function public.sync_public_profile() from public, anon, authenticated;
