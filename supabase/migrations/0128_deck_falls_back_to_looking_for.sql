-- A member who never saved match preferences (issue 20, noticed in the journeys): the deck used to offer every
-- gender, whatever their profile's "Looking for" said. With no preferences row and no gender filter given,
-- the deck now takes the genders from the profile's looking_for (empty still means anyone). A saved
-- preferences row, even one that says "anyone", is the member's word and wins, as does an explicit filter.
create or replace function public.get_discovery_candidates(
  limit_count int default 20,
  filter_min_age int default null,
  filter_max_age int default null,
  filter_max_distance_band text default null,
  filter_genders text[] default null,
  filter_relationship_goals text[] default null
)
returns table (
  id uuid,
  name text,
  age int,
  gender text,
  city text,
  country text,
  bio text,
  interests text[],
  photos text[],
  career text,
  education_level text,
  languages text[],
  height numeric,
  height_unit text,
  relationship_goals text,
  looking_for text[],
  is_verified boolean,
  last_seen timestamptz,
  distance_band text,
  compatibility_score int,
  explanation jsonb
)
language sql stable security definer set search_path = '' as $$
  select d.id, d.name, d.age, d.gender, d.city, d.country, d.bio, d.interests, d.photos, d.career,
    d.education_level, d.languages, d.height, d.height_unit, d.relationship_goals, d.looking_for,
    d.is_verified, d.last_seen, d.distance_band, d.compatibility_score, d.explanation - 'answers_score'
  from app_private.get_discovery_candidates(limit_count, filter_min_age, filter_max_age,
    filter_max_distance_band,
    coalesce(filter_genders, (
      select nullif(p.looking_for, '{}') from public.profiles p
       where p.id = auth.uid()
         and not exists (select 1 from public.match_preferences m where m.user_id = auth.uid()))),
    filter_relationship_goals) d
$$;
