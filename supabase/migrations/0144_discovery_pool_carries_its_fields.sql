-- Discovery reads each candidate's row once (issue 21; decisions 0076, 0083, 0116): two changes, the same decks
-- (tests/sql/discovery.test.ts, discovery-scale.test.ts).
-- - The pool's members carry the fields the scoring stage needs (interests, relationship goal, the two privacy
--   switches, position, last_seen: app_private.discovery_pool_member). Both indexes the pool is read from
--   (profiles_discovery_recent_idx, profiles_discovery_box_recent_idx) now hold them too, so the pool is still
--   read from the index alone, and the scoring stage no longer looks up its 500 candidates' rows one by one
--   in profiles (500 probes of profiles_pkey and as many heap pages a call). The indexes grow by the
--   interests: 101 -> 143 MB and 106 -> 146 MB at 1M members in bench:discovery.
-- - Members leaving (a deletion request pending) join the exclusion list, read once a call from the partial
--   index of pending requests, instead of an anti-join probed for each member read: on an empty
--   account_deletion_requests the planner chose a sequential scan, rescanned for each of the ~500 members
--   read, and each rescan asked the kernel for the table's size (lseek): 4-6% of a call in perf.
-- Measured on a 1M-member database (bench:discovery's data), the old and new functions called alternately on
-- one connection: p50 15-20% lower for wide, 50-100 km, narrow age and the heavy swiper's shapes; the
-- 'under 5 km' search (few members) about the same.

create type app_private.discovery_pool_member as (
  id uuid,
  last_seen timestamptz,
  show_online_status boolean,
  show_distance boolean,
  location_lat numeric,
  location_lng numeric,
  interests text[],
  relationship_goals text
);

drop index if exists public.profiles_discovery_recent_idx;
create index profiles_discovery_recent_idx on public.profiles (last_seen desc nulls last, id)
  include (birthday, gender, relationship_goals, location_lat, location_lng, show_online_status, show_distance,
    interests)
  where not is_paused and name is not null;
drop index if exists public.profiles_discovery_box_recent_idx;
create index profiles_discovery_box_recent_idx on public.profiles (location_lat, location_lng, last_seen)
  include (birthday, gender, relationship_goals, id, show_online_status, show_distance, interests)
  where not is_paused and name is not null;

create or replace function app_private.get_discovery_candidates(
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
language plpgsql stable security definer set search_path = ''
  -- see the header: no JIT compilation
  set jit = off as $$
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
  band_lats numeric[];
  band_lngs numeric[];
  excluded uuid[];
  pool app_private.discovery_pool_member[];
  pool_ids uuid[];
  phase int;
  found app_private.discovery_pool_member[];
  window_start timestamptz;
  window_end timestamptz;
  -- What both pool queries require of a member p (their parameters $1-$11 are the same values; each
  -- leaves out the exclusion list $9 its own way), and what a candidate (the alias given to format) must
  -- be: accepting the caller by their own stated preferences (members leaving are in the exclusion list).
  eligible constant text := $f$
    p.id <> $1
    and not p.is_paused
    and p.name is not null
    and (cardinality($2::text[]) = 0 or p.gender = any ($2::text[]))
    and (p.birthday between $3::date and $4::date or (p.birthday is null and $5::int <= 18 and $6::int >= 120))
    and (cardinality($7::text[]) = 0 or p.relationship_goals = any ($7::text[]))
  $f$;
  accepts_caller constant text := $f$
    not exists (select 1 from public.match_preferences cp where cp.user_id = %1$s.id
        and ((cardinality(cp.genders) = 0 or $10::text = any (cp.genders))
          and ($11::int between cp.min_age and cp.max_age
            or ($11::int is null and cp.min_age <= 18 and cp.max_age >= 120))) is not true)
  $f$;
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

  -- Everyone the caller never sees again: liked or skipped, blocked or reported in either direction, and
  -- every member leaving (a deletion pending: few, read from the partial index of pending requests).
  -- Gathered once through the caller's side of each table's index, so the pool query below joins
  -- no per-caller tables (fewer joins to plan) and tests membership in one hashed list.
  select coalesce(array_agg(x.id), '{}') into excluded from (
    select ui.target_id as id from public.user_interactions ui where ui.user_id = uid
    union all select bu.blocked_id from public.blocked_users bu where bu.blocker_id = uid
    union all select bu.blocker_id from public.blocked_users bu where bu.blocked_id = uid
    union all select r.reported_id from public.reports r where r.reporter_id = uid
    union all select r.reporter_id from public.reports r where r.reported_id = uid
    union all select d.user_id from public.account_deletion_requests d where d.status = 'pending'
  ) x;

  -- The pool: the pool_cap most recently active eligible members. EXECUTE plans it for this
  -- call's values (a cached generic plan would guess every filter's pass rate), and each filter
  -- is one the planner can estimate from the columns' statistics: the age rule as a birthday range
  -- (get_birthday_range). Without a band (or without the caller's position) it walks
  -- profiles_discovery_recent_idx and stops at the cap, or reads the few eligible members through
  -- another index when a filter is narrow (0061).
  --
  -- With a band (0132): the members at the band's grid points (get_band_grid_points), read from
  -- profiles_discovery_box_recent_idx alone (a wide band's last week first, one probe per point whatever
  -- the estimates: 0135), sorted by recency;
  -- only then are the candidates' own preferences checked, one index probe each,
  -- until the cap is reached (checked first, they hashed every stated preference of the whole community
  -- on each call).
  if want_band between 1 and 5 and me.location_lat is not null then
    select coalesce(array_agg(pt.point_lat), '{}'), coalesce(array_agg(pt.point_lng), '{}')
      into band_lats, band_lngs
    from app_private.get_band_grid_points(me.location_lat, me.location_lng, want_band) pt;
    -- The most recently active first, in windows of last_seen, newest first, each read only when the
    -- ones before left the pool short, none read twice (0140): the last week, when the band is wide; then,
    -- when the week gave at least an eighth of the pool, a window stretched from what it gave; then everything
    -- older and the never-seen. Every member of a window was seen after every member of the next, so the
    -- pool is the windows' finds in order.
    pool := '{}';
    window_start := case when cardinality(band_lats) >= 100 then now() - interval '7 days' end;
    for phase in 1..3 loop
      execute format($pool$
        select array(
          select row(c.id, c.last_seen, c.show_online_status, c.show_distance, c.location_lat, c.location_lng,
            c.interests, c.relationship_goals)::app_private.discovery_pool_member
          from (
            select p.*
            from unnest($12::numeric[], $13::numeric[]) g(lat, lng)
            cross join lateral (
              -- one probe of profiles_discovery_box_recent_idx per grid point (never a merge with
              -- another index's whole range; the fence keeps the planner from flattening it into one)
              select p.id, p.last_seen, p.show_online_status, p.show_distance, p.location_lat, p.location_lng,
                p.interests, p.relationship_goals
              from public.profiles p
              where p.location_lat = g.lat and p.location_lng = g.lng
                and %s
                -- hashed once for all points, and not weighed member by member when planned (0143)
                and coalesce(p.id <> all ($9::uuid[]), true)
                and ($14::timestamptz is null or p.last_seen >= $14::timestamptz)
                and ($15::timestamptz is null or p.last_seen < $15::timestamptz or p.last_seen is null)
              offset 0
            ) p
            order by p.last_seen desc nulls last, p.id
            offset 0
          ) c
          where %s
          order by c.last_seen desc nulls last, c.id
          limit $8)
      $pool$, eligible, format(accepts_caller, 'c'))
      into found
      using uid, want_genders, born_from, born_to, want_min, want_max, want_goals, pool_cap - cardinality(pool),
        excluded, me.gender, my_age, band_lats, band_lngs, window_start, window_end;
      pool := pool || found;
      exit when cardinality(pool) >= pool_cap or window_start is null;
      window_end := window_start;
      window_start := case when phase = 1 and cardinality(pool) * 8 >= pool_cap
        then now() - (now() - window_start) * (2.0 * pool_cap / cardinality(pool)) end;
    end loop;
  else
    -- Without a band, or with '100+ km' (rank 6): members without a position are left out only when
    -- the caller has one and asked for a distance.
    execute format($pool$
      select array(
        select row(p.id, p.last_seen, p.show_online_status, p.show_distance, p.location_lat, p.location_lng,
          p.interests, p.relationship_goals)::app_private.discovery_pool_member
        from public.profiles p
        where %s
          -- hashed, and not weighed member by member when planned (0143)
          and coalesce(p.id <> all ($9::uuid[]), true)
          and %s
          and ($12::int is null or $13::numeric is null
            or ($12::int >= 6 and $14::numeric is not null and p.location_lat is not null and p.location_lng is not null))
        order by p.last_seen desc nulls last, p.id
        limit $8)
    $pool$, eligible, format(accepts_caller, 'p'))
    into pool
    using uid, want_genders, born_from, born_to, want_min, want_max, want_goals, pool_cap, excluded,
      me.gender, my_age, want_band, me.location_lat, me.location_lng;
  end if;

  -- Set-based over the pool (its members' fields came with it, from the index the pool was read from): the
  -- same arithmetic as get_compatibility in one pass, public fields
  -- for the page only. tests/sql/discovery.test.ts checks that the scores and explanations equal
  -- get_compatibility's; discovery-scale.test.ts that the deck equals a brute-force ranking of
  -- everyone while the cap is not reached.
  pool_ids := array(select u.id from unnest(pool) u);
  return query
    with candidates as materialized (
      select p.id, p.interests, p.relationship_goals, p.show_distance,
        case when p.show_online_status then p.last_seen end as seen,
        case when me.location_lat is not null and p.location_lat is not null then
          public.get_distance_km(me.location_lat, me.location_lng, p.location_lat, p.location_lng) end as km
      from unnest(pool) p
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
        select distinct s.id, s.n
        from (select c.id, public.normalize_interest(unnest(c.interests)) as n from candidates c) s
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
      from public.profile_answers xb
      join public.profile_answers xa on xa.user_id = uid and xa.question_id = xb.question_id
      where xb.user_id = any (pool_ids)
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
    -- the page's public fields, read for the page's rows alone (a generic plan's estimate of the pool
    -- would otherwise join them to the whole pool)
    cross join lateral (select pp.* from public.public_profiles pp where pp.id = pg.id offset 0) pp
    order by pg.score desc, pg.seen desc nulls last, pg.id;
end;
$$;
