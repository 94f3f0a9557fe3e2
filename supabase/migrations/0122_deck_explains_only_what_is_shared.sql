-- Private answers (issue 13): a deck card may say what two members share (how many questions both answered,
-- on how many each accepts the other's answer, shared interests, the same goal), never a figure that
-- depends on one member's private answers alone. The explanation's `answers_score` (how well the other
-- member's private answers fit the caller's accepted answers) was exactly such a figure; it goes. The overall
-- score still weighs both members' answers, which is the product's point; probing it by flipping one's own
-- answers is rate-limited by 0118.
--
-- The ranking function keeps its body (0061) under app_private; the public function members call is a thin
-- wrapper with the same name, arguments and columns that drops the one-sided figure.
alter function public.get_discovery_candidates(int, int, int, text, text[], text[]) set schema app_private;
revoke execute on function app_private.get_discovery_candidates(int, int, int, text, text[], text[])
  from public, anon, authenticated;

create function public.get_discovery_candidates(
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
    filter_max_distance_band, filter_genders, filter_relationship_goals) d
$$;
-- Callable as before: a visitor gets "Not authenticated" from the inner function (get_required_uid).
