-- Discovery reads its candidates' answers and stated preferences from the pool's own index (issue 21; decision
-- 0117): the deck stays the same (tests/sql/discovery.test.ts, discovery-scale.test.ts, compatibility-agreement).
-- Measured on bench:discovery's 1M members, the scoring stage spent most of a wide call's time in
-- profile_answers: 500 descents of its (user_id, question_id) index and 500 heap pages a call (about 4 of 10 ms),
-- and the pool probed match_preferences once per member read (500+ descents more). Each member's row now
-- carries a copy of both, kept by triggers, and both discovery indexes include it, so neither is probed:
-- - profiles.discovery_answers: one int per answer, question_id << 11 | answer << 8 | acceptable-answers mask
--   << 2 | importance (app_private.pack_discovery_answer; question ids stay below 2^20, a check says so);
-- - profiles.discovery_accepts_genders, _min_age, _max_age: the member's stated preferences (all null when
--   they stated none);
-- - profiles.discovery_interests: the interests normalised (a generated column), so scoring does not normalise
--   500 members' lists on each call.
-- Members read them on their own row (select * needs it) and cannot write them.

alter table public.compatibility_questions add constraint compatibility_questions_id_packable
  check (id >= 0 and id < 1048576);

alter table public.profiles
  add column discovery_interests text[] generated always as (public.normalize_interests(interests)) stored,
  add column discovery_answers int[] not null default '{}',
  add column discovery_accepts_genders text[],
  add column discovery_accepts_min_age int,
  add column discovery_accepts_max_age int;
grant select (discovery_interests, discovery_answers, discovery_accepts_genders, discovery_accepts_min_age,
  discovery_accepts_max_age) on public.profiles to authenticated;

create or replace function app_private.pack_discovery_answer(
  question_id int, answer smallint, acceptable_answers smallint[], importance smallint)
returns int language sql immutable set search_path = '' as $$
  select (question_id << 11) | (answer::int << 8)
    | ((select coalesce(sum(distinct 1 << a), 0)::int from unnest(acceptable_answers) a) << 2) | importance::int
$$;

-- A member's answers, packed, in question order.
create or replace function app_private.get_discovery_answers(member uuid)
returns int[] language sql stable set search_path = '' as $$
  select coalesce(array_agg(app_private.pack_discovery_answer(a.question_id, a.answer, a.acceptable_answers,
      a.importance) order by a.question_id), '{}')
  from public.profile_answers a where a.user_id = member
$$;

-- Filled once, without the profile triggers (nothing a member wrote changes, so updated_at stays and the
-- public projection is not touched).
alter table public.profiles disable trigger user;
update public.profiles p set discovery_answers = a.packed
from (
  select a.user_id, array_agg(app_private.pack_discovery_answer(a.question_id, a.answer, a.acceptable_answers,
      a.importance) order by a.question_id) as packed
  from public.profile_answers a group by a.user_id
) a
where a.user_id = p.id;
update public.profiles p set discovery_accepts_genders = m.genders, discovery_accepts_min_age = m.min_age,
  discovery_accepts_max_age = m.max_age
from public.match_preferences m where m.user_id = p.id;
alter table public.profiles enable trigger user;

-- Kept by triggers on the two tables. Each locks the member's row first (no key update: it does not wait on the
-- key-share locks that inserting answers takes), then reads in a new statement, so of two writers at once the
-- second reads what the first committed.
create or replace function app_private.mirror_for_discovery()
returns trigger language plpgsql security definer set search_path = '' as $$
declare
  member uuid;
  m public.match_preferences;
begin
  for member in
    select distinct x from unnest(array[
      case when tg_op <> 'INSERT' then old.user_id end, case when tg_op <> 'DELETE' then new.user_id end]) x
    where x is not null
  loop
    perform 1 from public.profiles p where p.id = member for no key update;
    if tg_table_name = 'profile_answers' then
      update public.profiles p set discovery_answers = app_private.get_discovery_answers(member)
      where p.id = member and p.discovery_answers is distinct from app_private.get_discovery_answers(member);
    else
      m := null;
      select * into m from public.match_preferences mp where mp.user_id = member;
      update public.profiles p set discovery_accepts_genders = m.genders, discovery_accepts_min_age = m.min_age,
        discovery_accepts_max_age = m.max_age
      where p.id = member
        and (p.discovery_accepts_genders, p.discovery_accepts_min_age, p.discovery_accepts_max_age)
          is distinct from (m.genders, m.min_age, m.max_age);
    end if;
  end loop;
  return null;
end;
$$;
create trigger profile_answers_mirror_discovery after insert or update or delete on public.profile_answers
  for each row execute function app_private.mirror_for_discovery();
create trigger match_preferences_mirror_discovery after insert or update or delete on public.match_preferences
  for each row execute function app_private.mirror_for_discovery();

-- The pool's members carry their normalised interests and packed answers.
alter type app_private.discovery_pool_member add attribute answers int[];

drop index if exists public.profiles_discovery_recent_idx;
create index profiles_discovery_recent_idx on public.profiles (last_seen desc nulls last, id)
  include (birthday, gender, relationship_goals, location_lat, location_lng, show_online_status, show_distance,
    discovery_interests, discovery_answers, discovery_accepts_genders, discovery_accepts_min_age,
    discovery_accepts_max_age)
  where not is_paused and name is not null;
drop index if exists public.profiles_discovery_box_recent_idx;
create index profiles_discovery_box_recent_idx on public.profiles (location_lat, location_lng, last_seen)
  include (birthday, gender, relationship_goals, id, show_online_status, show_distance, discovery_interests,
    discovery_answers, discovery_accepts_genders, discovery_accepts_min_age, discovery_accepts_max_age)
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
  my_answers int[];
  -- How many eligible members get the full score; below it the deck equals scoring everyone.
  pool_cap constant int := 500;
  born_from date;
  born_to date;
  band_lats numeric[];
  band_lngs numeric[];
  excluded uuid[];
  pool app_private.discovery_pool_member[];
  phase int;
  found app_private.discovery_pool_member[];
  window_start timestamptz;
  window_end timestamptz;
  -- What both pool queries require of a member p (their parameters $1-$11 are the same values; each
  -- leaves out the exclusion list $9 its own way), accepting the caller by their own stated preferences
  -- (read from the member's row: 0145; members leaving are in the exclusion list).
  eligible constant text := $f$
    p.id <> $1
    and not p.is_paused
    and p.name is not null
    and (cardinality($2::text[]) = 0 or p.gender = any ($2::text[]))
    and (p.birthday between $3::date and $4::date or (p.birthday is null and $5::int <= 18 and $6::int >= 120))
    and (cardinality($7::text[]) = 0 or p.relationship_goals = any ($7::text[]))
    and (p.discovery_accepts_min_age is null
      or ((cardinality(p.discovery_accepts_genders) = 0 or $10::text = any (p.discovery_accepts_genders))
        and ($11::int between p.discovery_accepts_min_age and p.discovery_accepts_max_age
          or ($11::int is null and p.discovery_accepts_min_age <= 18 and p.discovery_accepts_max_age >= 120)))
        is true)
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
  my_interests := me.discovery_interests;
  my_answers := me.discovery_answers;
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
  -- the estimates: 0135), sorted by recency, until the cap is reached.
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
            c.discovery_interests, c.relationship_goals, c.discovery_answers)::app_private.discovery_pool_member
          from (
            select p.*
            from unnest($12::numeric[], $13::numeric[]) g(lat, lng)
            cross join lateral (
              -- one probe of profiles_discovery_box_recent_idx per grid point (never a merge with
              -- another index's whole range; the fence keeps the planner from flattening it into one)
              select p.id, p.last_seen, p.show_online_status, p.show_distance, p.location_lat, p.location_lng,
                p.discovery_interests, p.relationship_goals, p.discovery_answers
              from public.profiles p
              where p.location_lat = g.lat and p.location_lng = g.lng
                and %s
                -- hashed once for all points, and not weighed member by member when planned (0143)
                and coalesce(p.id <> all ($9::uuid[]), true)
                and ($14::timestamptz is null or p.last_seen >= $14::timestamptz)
                and ($15::timestamptz is null or p.last_seen < $15::timestamptz or p.last_seen is null)
              offset 0
            ) p
          ) c
          order by c.last_seen desc nulls last, c.id
          limit $8)
      $pool$, eligible)
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
          p.discovery_interests, p.relationship_goals, p.discovery_answers)::app_private.discovery_pool_member
        from public.profiles p
        where %s
          -- hashed, and not weighed member by member when planned (0143)
          and coalesce(p.id <> all ($9::uuid[]), true)
          and ($12::int is null or $13::numeric is null
            or ($12::int >= 6 and $14::numeric is not null and p.location_lat is not null and p.location_lng is not null))
        order by p.last_seen desc nulls last, p.id
        limit $8)
    $pool$, eligible)
    into pool
    using uid, want_genders, born_from, born_to, want_min, want_max, want_goals, pool_cap, excluded,
      me.gender, my_age, want_band, me.location_lat, me.location_lng;
  end if;

  -- Set-based over the pool (its members' fields, normalised interests and packed answers included, came with
  -- it from the index the pool was read from: no table is read for the 500): the same arithmetic as
  -- get_compatibility in one pass, the distance and the public fields for the page only.
  -- tests/sql/discovery.test.ts checks that the scores and explanations equal
  -- get_compatibility's; discovery-scale.test.ts that the deck equals a brute-force ranking of
  -- everyone while the cap is not reached.
  return query
    with candidates as materialized (
      select p.id, p.interests, p.relationship_goals, p.show_distance, p.answers,
        case when p.show_online_status then p.last_seen end as seen, p.location_lat, p.location_lng
      from unnest(pool) p
    ),
    -- the caller's answers, unpacked (question, answer, acceptable answers as a bit mask, importance)
    mine as (
      select e >> 11 as q, (e >> 8) & 7 as answer, (e >> 2) & 63 as mask, e & 3 as importance
      from unnest(my_answers) e
    ),
    -- One row per (candidate, source), then one GROUP BY: no join between derived sets, so a
    -- misestimated pool size cannot turn into a quadratic nested loop, and only fixed-size values to
    -- aggregate (the band and the shared interests are worked out for the page alone).
    contributions as (
      select c.id, true as in_pool, c.show_distance, c.seen,
        coalesce(me.relationship_goals = c.relationship_goals, false) as goals_match,
        0 as common, 0 as shared_answers, 0 as earned_a, 0 as possible_a, 0 as earned_b, 0 as possible_b,
        cardinality(c.interests) as interest_count, 0 as shared_count
      from candidates c
      union all
      -- each interest of a candidate the caller has too (both lists normalised and distinct)
      select c.id, false, null, null, null, 0, 0, 0, 0, 0, 0, 0, 1
      from candidates c cross join lateral unnest(c.interests) n
      where n = any (my_interests)
      union all
      -- each question both answered: xa the caller's answer, xb the candidate's
      select xb.id, false, null, null, null,
        1,
        case when (xa.mask >> xb.answer) & 1 = 1 and (xb.mask >> xa.answer) & 1 = 1 then 1 else 0 end,
        case when (xa.mask >> xb.answer) & 1 = 1 then public.get_importance_weight(xa.importance::smallint) else 0 end,
        public.get_importance_weight(xa.importance::smallint),
        case when (xb.mask >> xa.answer) & 1 = 1 then public.get_importance_weight(xb.importance::smallint) else 0 end,
        public.get_importance_weight(xb.importance::smallint),
        0, 0
      from (
        select c.id, e >> 11 as q, (e >> 8) & 7 as answer, (e >> 2) & 63 as mask, e & 3 as importance
        from candidates c cross join lateral unnest(c.answers) e
      ) xb
      join mine xa on xa.q = xb.q
    ),
    totals as (
      select c.id,
        bool_or(c.in_pool) as in_pool,
        bool_or(c.show_distance) as show_distance, max(c.seen) as seen,
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
      case when pg.show_distance and me.show_distance and me.location_lat is not null and c.location_lat is not null
        then public.get_distance_band(
          public.get_distance_km(me.location_lat, me.location_lng, c.location_lat, c.location_lng)) end,
      pg.score,
      jsonb_build_object(
        'common_questions', pg.common,
        'shared_answers', pg.shared_answers,
        'answers_score', case when pg.possible_a + pg.possible_b = 0 then null
          else (100 * (pg.earned_a + pg.earned_b)) / (pg.possible_a + pg.possible_b) end,
        'shared_interests', coalesce((select jsonb_agg(x order by x)
          from unnest(c.interests) x where x = any (my_interests)), '[]'),
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
