-- Discovery at 1M profiles: the same deck as 0032 (signature, columns, filters, the pool of the
-- pool_cap most recently active eligible members, ranking), but the pool is found by a query
-- planned for the caller's actual values, with every filter in a form the planner can estimate,
-- so it walks profiles_discovery_recent_idx and stops at the cap instead of reading and sorting
-- every eligible profile (docs/decisions/0026-discovery-pool-planned-per-call.md).

-- A birthday range equal to "age (get_age) between min_age and max_age" on day `today`: the whole
-- range of birthdays, as dates, so an index and the column's statistics apply. Out-of-range ages
-- give an empty or unbounded range, never a date error. tests/sql/discovery-age-range.test.ts
-- checks it against get_age's arithmetic day by day across leap years.
create or replace function public.get_birthday_range(min_age int, max_age int, today date)
returns table (born_from date, born_to date)
language sql immutable as $$
  select
    case when max_age >= 1000 then '-infinity'::date
      when max_age < 0 then 'infinity'::date
      else (today - make_interval(years => max_age + 1))::date + 1 end,
    case when min_age <= 0 then 'infinity'::date
      when min_age > 1000 then '-infinity'::date
      else (today - make_interval(years => min_age))::date end
$$;

-- How far in latitude and longitude (degrees) a member can be from (lat, lng) and still be within
-- the distance band of this rank ('under 5 km' = 1 ... '50-100 km' = 5): index-friendly bounds, a
-- superset of the band, never the band itself. Null where there is no bound ('100+ km', unknown
-- band, or for longitude near a pole or across the antimeridian). By the haversine formula a
-- distance d needs sin^2(dlat/2) <= sin^2(d/2R) and cos(lat1)cos(lat2)sin^2(dlng/2) <= sin^2(d/2R);
-- 0.01 degree of slack each. tests/sql/discovery-box.test.ts checks no member in the band is outside.
create or replace function public.get_discovery_box(lat numeric, lng numeric, band_rank int)
returns table (lat_delta numeric, lng_delta numeric)
language sql immutable as $$
  with b as (
    select (array[5, 10, 25, 50, 100])[band_rank] / (2 * 6371.0) as half_angle
    where band_rank between 1 and 5 and lat is not null and lng is not null
  ),
  lat_box as (
    select b.half_angle, (degrees(2 * b.half_angle) + 0.01)::numeric as lat_delta from b
  ),
  lng_box as (
    select l.lat_delta,
      -- the farthest latitude the box reaches: the smallest cosine on the other member's side
      sin(l.half_angle) / sqrt(cos(radians(abs(lat::float8))) * cos(radians(least(90, abs(lat::float8) + l.lat_delta::float8))))
        as s
    from lat_box l
    where abs(lat) + l.lat_delta < 89
  )
  select l.lat_delta,
    (select (degrees(2 * asin(x.s)) + 0.01)::numeric from lng_box x
      where x.s < 1 and lng - (degrees(2 * asin(x.s)) + 0.01)::numeric >= -180
        and lng + (degrees(2 * asin(x.s)) + 0.01)::numeric <= 180)
  from lat_box l
$$;

-- One interest as compared (ASCII lower case, trimmed of spaces), as a plain expression the planner
-- inlines, so a whole pool's interests are normalised in one set-based pass; normalize_interests
-- (0008) now uses it, so both stay one rule.
create or replace function public.normalize_interest(item text) returns text
language sql immutable as $$
  select btrim(translate(item, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), ' ')
$$;

create or replace function public.normalize_interests(items text[]) returns text[]
language sql immutable as $$
  select coalesce(array_agg(distinct n order by n), '{}')
  from (select public.normalize_interest(x) as n from unnest(coalesce(items, '{}')) x) t
  where n <> ''
$$;

-- The caller's deck: members whose preferences and the caller's accept each other (gender, age),
-- within the caller's distance band and goals, excluding self, paused members, anyone blocked or
-- reported either way, anyone the caller already liked or skipped, and members leaving (deletion
-- pending). Ranked by compatibility, then recent activity. Filters, when given, replace the
-- caller's stored preference for that dimension.
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
language plpgsql stable security definer set search_path = '' as $$
#variable_conflict use_column
declare
  uid uuid := public.get_required_uid();
  me public.profiles;
  prefs public.match_preferences;
  want_min int;
  want_max int;
  want_band int;
  want_genders text[];
  want_goals text[];
  my_age int;
  my_interests text[];
  -- How many eligible members get the full score; below it the deck equals scoring everyone.
  pool_cap constant int := 500;
  born_from date;
  born_to date;
  max_lat_delta numeric;
  max_lng_delta numeric;
  excluded uuid[];
  pool uuid[];
begin
  if limit_count is null or limit_count < 1 or limit_count > 100 then
    raise exception 'limit_count must be between 1 and 100' using errcode = '22023';
  end if;
  if filter_max_distance_band is not null and public.get_distance_band_rank(filter_max_distance_band) is null then
    raise exception 'Unknown distance band' using errcode = '22023';
  end if;
  select * into me from public.profiles p where p.id = uid;
  select * into prefs from public.match_preferences mp where mp.user_id = uid;
  if filter_min_age is not null and filter_max_age is not null and filter_min_age > filter_max_age then
    raise exception 'filter_min_age must not exceed filter_max_age' using errcode = '22023';
  end if;
  want_min := coalesce(filter_min_age, prefs.min_age, 18);
  want_max := coalesce(filter_max_age, prefs.max_age, 120);
  want_band := public.get_distance_band_rank(coalesce(filter_max_distance_band, prefs.max_distance_band));
  want_genders := coalesce(filter_genders, prefs.genders, '{}');
  want_goals := coalesce(filter_relationship_goals, prefs.relationship_goals, '{}');
  my_age := public.get_age(me.birthday);
  my_interests := public.normalize_interests(me.interests);
  select r.born_from, r.born_to into born_from, born_to from public.get_birthday_range(want_min, want_max, current_date) r;
  -- Bands below '100+ km' bound the latitude and, away from the poles and the antimeridian, the
  -- longitude: an index-friendly superset of the band.
  select bx.lat_delta, bx.lng_delta into max_lat_delta, max_lng_delta
  from public.get_discovery_box(me.location_lat, me.location_lng, want_band) bx;

  -- Everyone the caller never sees again: liked or skipped, blocked or reported in either direction.
  -- Gathered once through the caller's side of each table's index, so the pool query below joins
  -- no per-caller tables (fewer joins to plan) and tests membership in one hashed list.
  select coalesce(array_agg(x.id), '{}') into excluded from (
    select ui.target_id as id from public.user_interactions ui where ui.user_id = uid
    union all select bu.blocked_id from public.blocked_users bu where bu.blocker_id = uid
    union all select bu.blocker_id from public.blocked_users bu where bu.blocked_id = uid
    union all select r.reported_id from public.reports r where r.reporter_id = uid
    union all select r.reporter_id from public.reports r where r.reported_id = uid
  ) x;

  -- The pool: the pool_cap most recently active eligible members. EXECUTE plans it for this
  -- call's values (a cached generic plan would guess every filter's pass rate), and each filter
  -- is one the planner can estimate from the columns' statistics: the age rule as a birthday range
  -- (get_birthday_range), the band as a latitude box. With a broad filter it walks
  -- profiles_discovery_recent_idx and stops at the cap; with a narrow one it reads the few
  -- eligible members through another index and sorts them.
  execute $pool$
    select array(
      select p.id
      from public.profiles p
      where p.id <> $1
        and not p.is_paused
        and p.name is not null
        -- the caller's side
        and (cardinality($2::text[]) = 0 or p.gender = any ($2::text[]))
        and (p.birthday between $3::date and $4::date or (p.birthday is null and $5::int <= 18 and $6::int >= 120))
        and (cardinality($7::text[]) = 0 or p.relationship_goals = any ($7::text[]))
        -- the candidate's side, as an anti-join (a left join's filter on the missing row would be
        -- estimated from match_preferences alone, as if almost no one passed)
        and not exists (select 1 from public.match_preferences cp where cp.user_id = p.id
          and ((cardinality(cp.genders) = 0 or $8::text = any (cp.genders))
            and ($9::int between cp.min_age and cp.max_age
              or ($9::int is null and cp.min_age <= 18 and cp.max_age >= 120))) is not true)
        -- within the caller's band ('100+ km' takes any position); the box is an index-friendly
        -- superset of the nearer bands
        and ($10::int is null or $11::numeric is null
          or ($10::int >= 6 and $12::numeric is not null and p.location_lat is not null and p.location_lng is not null)
          or ($10::int < 6 and p.location_lat is not null
            and p.location_lat between $11::numeric - $13::numeric and $11::numeric + $13::numeric
            and ($16::numeric is null
              or p.location_lng between $12::numeric - $16::numeric and $12::numeric + $16::numeric)
            and public.get_distance_band_rank(public.get_distance_band(
              public.get_distance_km($11::numeric, $12::numeric, p.location_lat, p.location_lng))) <= $10::int))
        -- never seen again once liked or skipped; never across a block or report, either way
        and p.id <> all ($15::uuid[])
        and not exists (select 1 from public.account_deletion_requests d2 where d2.user_id = p.id and d2.status = 'pending')
      -- The scored pool: the most recently active eligible members (docs/decisions, discovery pool cap).
      order by p.last_seen desc nulls last, p.id
      limit $14)
  $pool$
  into pool
  using uid, want_genders, born_from, born_to, want_min, want_max, want_goals, me.gender, my_age,
    want_band, me.location_lat, me.location_lng, max_lat_delta, pool_cap, excluded, max_lng_delta;

  -- Set-based over the pool: the same arithmetic as get_compatibility in one pass, public fields
  -- for the page only. tests/sql/discovery.test.ts checks that the scores and explanations equal
  -- get_compatibility's; discovery-scale.test.ts that the deck equals a brute-force ranking of
  -- everyone while the cap is not reached.
  return query
    with candidates as materialized (
      select p.id, p.interests, p.relationship_goals, p.show_distance,
        case when p.show_online_status then p.last_seen end as seen,
        case when me.location_lat is not null and p.location_lat is not null then
          public.get_distance_km(me.location_lat, me.location_lng, p.location_lat, p.location_lng) end as km
      from unnest(pool) as u(id)
      join public.profiles p on p.id = u.id
    ),
    -- One row per (candidate, source), then one GROUP BY: no join between derived sets, so a
    -- misestimated pool size cannot turn into a quadratic nested loop, no function call per
    -- candidate (interests are normalised as rows, not per array) and only fixed-size values to
    -- aggregate (the band and the shared interests are worked out for the page alone).
    contributions as (
      select c.id, true as in_pool, c.km, c.show_distance, c.seen,
        coalesce(me.relationship_goals = c.relationship_goals, false) as goals_match,
        0 as common, 0 as shared_answers, 0 as earned_a, 0 as possible_a, 0 as earned_b, 0 as possible_b,
        0 as interest_count, 0 as shared_count
      from candidates c
      union all
      -- each distinct normalised interest of a candidate, and whether the caller has it too
      select ni.id, false, null, null, null, null, 0, 0, 0, 0, 0, 0,
        1, case when ni.n = any (my_interests) then 1 else 0 end
      from (
        select distinct c.id, public.normalize_interest(x) as n
        from candidates c
        cross join unnest(c.interests) x
      ) ni
      where ni.n <> ''
      union all
      select xb.user_id, false, null, null, null, null,
        1,
        case when xb.answer = any (xa.acceptable_answers) and xa.answer = any (xb.acceptable_answers) then 1 else 0 end,
        case when xb.answer = any (xa.acceptable_answers) then public.get_importance_weight(xa.importance) else 0 end,
        public.get_importance_weight(xa.importance),
        case when xa.answer = any (xb.acceptable_answers) then public.get_importance_weight(xb.importance) else 0 end,
        public.get_importance_weight(xb.importance),
        0, 0
      from candidates c
      join public.profile_answers xb on xb.user_id = c.id
      join public.profile_answers xa on xa.user_id = uid and xa.question_id = xb.question_id
    ),
    totals as (
      select c.id,
        bool_or(c.in_pool) as in_pool,
        max(c.km) as km, bool_or(c.show_distance) as show_distance, max(c.seen) as seen,
        bool_or(c.goals_match) as goals_match,
        sum(c.common)::int as common, sum(c.shared_answers)::int as shared_answers,
        sum(c.earned_a)::int as earned_a, sum(c.possible_a)::int as possible_a,
        sum(c.earned_b)::int as earned_b, sum(c.possible_b)::int as possible_b,
        sum(c.interest_count)::int as interest_count, sum(c.shared_count)::int as shared_count
      from contributions c
      group by c.id
    ),
    ranked as (
      select t.*,
        -- both lists are distinct already, so the union is the sum less the overlap
        cardinality(my_interests) + t.interest_count - t.shared_count as all_interests,
        public.compute_compatibility_score(t.earned_a, t.possible_a, t.earned_b, t.possible_b, t.shared_count,
          cardinality(my_interests) + t.interest_count - t.shared_count, t.goals_match) as score
      from totals t
      where t.in_pool
    ),
    page as (
      select rk.* from ranked rk
      order by rk.score desc, rk.seen desc nulls last, rk.id
      limit limit_count
    )
    select pg.id, pp.name, pp.age, pp.gender, pp.city, pp.country, pp.bio, pp.interests, pp.photos, pp.career,
      pp.education_level, pp.languages, pp.height, pp.height_unit, pp.relationship_goals, pp.looking_for,
      pp.is_verified, pp.last_seen,
      case when pg.show_distance and me.show_distance then public.get_distance_band(pg.km) end,
      pg.score,
      jsonb_build_object(
        'common_questions', pg.common,
        'shared_answers', pg.shared_answers,
        'answers_score', case when pg.possible_a + pg.possible_b = 0 then null
          else (100 * (pg.earned_a + pg.earned_b)) / (pg.possible_a + pg.possible_b) end,
        'shared_interests', coalesce((select jsonb_agg(x order by x)
          from unnest(public.normalize_interests(c.interests)) x where x = any (my_interests)), '[]'),
        'interests_score', case when pg.all_interests = 0 then 0 else (100 * pg.shared_count) / pg.all_interests end,
        'goals_match', pg.goals_match)
    from page pg
    join candidates c on c.id = pg.id
    join public.public_profiles pp on pp.id = pg.id
    order by pg.score desc, pg.seen desc nulls last, pg.id;
end;
$$;

