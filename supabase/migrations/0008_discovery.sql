-- Discovery: the questionnaire's questions, the compatibility rule (mirrored in
-- src/domain/compatibility.ts; SQL is the authority), coarse distance bands and the ranked deck.

insert into public.compatibility_questions (id, category, text, options) values
  (1, 'lifestyle', 'How often do you exercise?', array['Daily', 'A few times a week', 'Occasionally', 'Rarely']),
  (2, 'lifestyle', 'Do you smoke?', array['Never', 'Socially', 'Regularly', 'Trying to quit']),
  (3, 'lifestyle', 'How often do you drink alcohol?', array['Never', 'Socially', 'Often']),
  (4, 'lifestyle', 'Are you a morning person or a night owl?', array['Morning person', 'Night owl', 'Depends on the day']),
  (5, 'lifestyle', 'How tidy is your home?', array['Spotless', 'Mostly tidy', 'Organised chaos', 'Messy']),
  (6, 'lifestyle', 'What does your ideal weekend look like?', array['Outdoors', 'Out with friends', 'Cosy at home', 'A bit of everything']),
  (7, 'lifestyle', 'How do you feel about pets?', array['Love them and have some', 'Love them, none yet', 'Not for me', 'Allergic']),
  (8, 'lifestyle', 'What is your diet like?', array['Anything goes', 'Vegetarian', 'Vegan', 'Other specific diet']),
  (9, 'lifestyle', 'How much do you travel?', array['Whenever I can', 'A few trips a year', 'Rarely', 'Not interested']),
  (10, 'lifestyle', 'City or countryside?', array['City', 'Suburbs', 'Countryside', 'No preference']),
  (11, 'values', 'How important is religion or spirituality in your life?', array['Very important', 'Somewhat important', 'Not important']),
  (12, 'values', 'How important is politics to you?', array['Very important', 'Somewhat important', 'Not important']),
  (13, 'values', 'How do you handle money?', array['Saver', 'Spender', 'Balanced']),
  (14, 'values', 'How important is career ambition?', array['Top priority', 'Important but balanced', 'Not a priority']),
  (15, 'values', 'Is honesty always the best policy?', array['Always', 'Almost always', 'Depends on the situation']),
  (16, 'values', 'How important is family to you?', array['The centre of my life', 'Important', 'Not very']),
  (17, 'values', 'How do you feel about volunteering and giving back?', array['I do it regularly', 'I would like to', 'Not for me']),
  (18, 'values', 'How important is education to you?', array['Very important', 'Somewhat important', 'Not important']),
  (19, 'relationships', 'Do you want children?', array['Yes', 'Maybe someday', 'No', 'I already have children']),
  (20, 'relationships', 'How soon would you like to settle down?', array['As soon as I find the right person', 'In a few years', 'No plans to']),
  (21, 'relationships', 'How much time together is ideal?', array['As much as possible', 'A healthy balance', 'Plenty of independence']),
  (22, 'relationships', 'How do you show affection?', array['Words', 'Touch', 'Gifts', 'Quality time', 'Acts of service']),
  (23, 'relationships', 'How do you handle disagreements?', array['Talk it out right away', 'Take time, then talk', 'Avoid conflict']),
  (24, 'relationships', 'Is monogamy important to you?', array['Yes', 'Open to discussion', 'No']),
  (25, 'relationships', 'How often do you like to text during the day?', array['Constantly', 'A few times', 'Only to make plans']),
  (26, 'relationships', 'Would you move for a partner?', array['Yes', 'Maybe', 'No']),
  (27, 'relationships', 'How important is physical attraction?', array['Essential', 'Important', 'It grows over time']),
  (28, 'relationships', 'How do you feel about staying friends with exes?', array['Fine with it', 'Depends', 'Not comfortable']),
  (29, 'social', 'Are you more introverted or extroverted?', array['Introvert', 'Extrovert', 'Somewhere in between']),
  (30, 'social', 'How big is your circle of friends?', array['A few close friends', 'A big group', 'Both']),
  (31, 'social', 'How do you feel about parties?', array['Love them', 'Sometimes', 'Prefer small gatherings']),
  (32, 'social', 'How much do you use social media?', array['A lot', 'Some', 'Barely']),
  (33, 'social', 'How do you feel about meeting a partner''s family early?', array['Love it', 'After a while', 'Take it slow']),
  (34, 'future', 'Where do you see yourself in five years?', array['Same place, growing', 'Somewhere new', 'No idea, and that''s fine']),
  (35, 'future', 'Do you want to own a home?', array['Yes', 'Maybe', 'No']),
  (36, 'future', 'How do you feel about marriage?', array['I want to marry', 'Open to it', 'Not for me']),
  (37, 'habits', 'How do you spend a free evening?', array['Reading or films', 'Sport or a walk', 'Going out', 'Creative hobbies']),
  (38, 'habits', 'How do you feel about cooking?', array['Love to cook', 'Cook when needed', 'Prefer eating out']),
  (39, 'habits', 'How punctual are you?', array['Always early', 'On time', 'Usually a bit late']),
  (40, 'habits', 'How do you feel about spontaneous plans?', array['Love them', 'Sometimes', 'Prefer planning ahead']),
  (41, 'habits', 'What kind of music do you listen to most?', array['Pop or rock', 'Hip-hop or R&B', 'Electronic', 'Classical or jazz', 'A bit of everything']),
  (42, 'habits', 'How much screen time is too much?', array['I watch a lot and that''s fine', 'Some is fine', 'I keep it low'])
on conflict (id) do nothing;

-- An answer must index one of the question's options.
create or replace function public.check_profile_answer() returns trigger
language plpgsql set search_path = '' as $$
declare
  option_count int;
begin
  select cardinality(q.options) into option_count from public.compatibility_questions q where q.id = new.question_id;
  if new.answer >= option_count
    or exists (select 1 from unnest(new.acceptable_answers) a where a >= option_count) then
    raise exception 'Answer out of range for question %', new.question_id using errcode = '23514';
  end if;
  return new;
end;
$$;
create trigger profile_answers_check before insert or update on public.profile_answers
  for each row execute function public.check_profile_answer();

-- Compatibility ---------------------------------------------------------------------------------

-- How much an answer counts for its owner: OkCupid-style steep weights, so "very important"
-- questions dominate.
create or replace function public.get_importance_weight(importance smallint) returns int
language sql immutable as $$
  select case importance when 0 then 0 when 1 then 1 when 2 then 10 when 3 then 50 else 0 end
$$;

-- Interests compared case-insensitively (ASCII only, so PostgreSQL and JavaScript agree whatever
-- the locale), trimmed of spaces, without blanks or duplicates.
create or replace function public.normalize_interests(items text[]) returns text[]
language sql immutable as $$
  select coalesce(array_agg(distinct n order by n), '{}')
  from (
    select btrim(translate(x, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), ' ') as n
    from unnest(coalesce(items, '{}')) x
  ) t
  where n <> ''
$$;

-- The score (0-100) from its parts, in integer arithmetic so both implementations agree exactly:
-- 60% answers (both sides' earned weight over possible weight, 50 when nothing comparable),
-- 25% shared interests (shared over all distinct), 15% same relationship goal.
create or replace function public.compute_compatibility_score(
  earned_a int, possible_a int, earned_b int, possible_b int,
  shared_interests int, all_interests int, goals_match boolean
) returns int
language sql immutable as $$
  select (
    60 * case when possible_a + possible_b = 0 then 50 else (100 * (earned_a + earned_b)) / (possible_a + possible_b) end
    + 25 * case when all_interests = 0 then 0 else (100 * shared_interests) / all_interests end
    + 15 * case when goals_match then 100 else 0 end
  ) / 100
$$;

-- The score and its explanation for one pair: the reference the discovery deck is tested against
-- (it computes the same over a whole pool at once). Security definer since it reads both members'
-- private answers; not callable by members.
create or replace function public.get_compatibility(a uuid, b uuid)
returns table (score int, explanation jsonb)
language sql stable security definer set search_path = '' as $$
  with pa as (select * from public.profiles where id = a),
  pb as (select * from public.profiles where id = b),
  answers as (
    select
      count(*)::int as common,
      count(*) filter (where xb.answer = any (xa.acceptable_answers) and xa.answer = any (xb.acceptable_answers))::int as shared,
      coalesce(sum(public.get_importance_weight(xa.importance)) filter (where xb.answer = any (xa.acceptable_answers)), 0)::int as earned_a,
      coalesce(sum(public.get_importance_weight(xa.importance)), 0)::int as possible_a,
      coalesce(sum(public.get_importance_weight(xb.importance)) filter (where xa.answer = any (xb.acceptable_answers)), 0)::int as earned_b,
      coalesce(sum(public.get_importance_weight(xb.importance)), 0)::int as possible_b
    from public.profile_answers xa
    join public.profile_answers xb on xb.question_id = xa.question_id and xb.user_id = b
    where xa.user_id = a
  ),
  interests as (
    select
      coalesce((select array_agg(x order by x) from unnest(public.normalize_interests(pa.interests)) x
        where x = any (public.normalize_interests(pb.interests))), '{}') as shared,
      (select count(distinct x)::int from unnest(public.normalize_interests(pa.interests) || public.normalize_interests(pb.interests)) x) as total,
      coalesce(pa.relationship_goals = pb.relationship_goals, false) as goals_match
    from pa, pb
  )
  select
    public.compute_compatibility_score(an.earned_a, an.possible_a, an.earned_b, an.possible_b,
      cardinality(i.shared), i.total, i.goals_match),
    jsonb_build_object(
      'common_questions', an.common,
      'shared_answers', an.shared,
      'answers_score', case when an.possible_a + an.possible_b = 0 then null
        else (100 * (an.earned_a + an.earned_b)) / (an.possible_a + an.possible_b) end,
      'shared_interests', to_jsonb(i.shared),
      'interests_score', case when i.total = 0 then 0 else (100 * cardinality(i.shared)) / i.total end,
      'goals_match', i.goals_match)
  from answers an, interests i
$$;
revoke execute on function public.get_compatibility(uuid, uuid) from public, anon, authenticated;

-- Distance --------------------------------------------------------------------------------------

-- Great-circle distance in km between two (grid-snapped) positions.
create or replace function public.get_distance_km(lat1 numeric, lng1 numeric, lat2 numeric, lng2 numeric)
returns double precision
language sql immutable as $$
  select 2 * 6371 * asin(least(1, sqrt(
    power(sin(radians((lat2 - lat1)::float8) / 2), 2)
    + cos(radians(lat1::float8)) * cos(radians(lat2::float8)) * power(sin(radians((lng2 - lng1)::float8) / 2), 2))))
$$;

-- Never exact metres: others only ever see one of these bands (mirrored in src/domain/distance-band.ts).
create or replace function public.get_distance_band(km double precision) returns text
language sql immutable as $$
  select case
    when km is null then null
    when km < 5 then 'under 5 km'
    when km < 10 then '5-10 km'
    when km < 25 then '10-25 km'
    when km < 50 then '25-50 km'
    when km < 100 then '50-100 km'
    else '100+ km'
  end
$$;

create or replace function public.get_distance_band_rank(band text) returns int
language sql immutable as $$
  select array_position(array['under 5 km', '5-10 km', '10-25 km', '25-50 km', '50-100 km', '100+ km'], band)
$$;

-- Discovery -------------------------------------------------------------------------------------

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

  -- Set-based: filters first, then the same arithmetic as get_compatibility over the whole pool in
  -- one pass, public fields for the page only. tests/sql/discovery.test.ts checks that the scores
  -- and explanations equal get_compatibility's.
  return query
    with pool as (
      select p.id, public.normalize_interests(p.interests) as norm, p.relationship_goals, p.show_distance,
        case when p.show_online_status then p.last_seen end as seen,
        case when me.location_lat is not null and p.location_lat is not null then
          public.get_distance_km(me.location_lat, me.location_lng, p.location_lat, p.location_lng) end as km
      from public.profiles p
      left join public.match_preferences cp on cp.user_id = p.id
      where p.id <> uid
        and not p.is_paused
        and p.name is not null
        -- the caller's side
        and (cardinality(want_genders) = 0 or p.gender = any (want_genders))
        and (public.get_age(p.birthday) between want_min and want_max
          or (p.birthday is null and want_min <= 18 and want_max >= 120))
        and (cardinality(want_goals) = 0 or p.relationship_goals = any (want_goals))
        -- the candidate's side
        and (cardinality(coalesce(cp.genders, '{}')) = 0 or me.gender = any (cp.genders))
        and (cp.user_id is null or my_age between cp.min_age and cp.max_age
          or (my_age is null and cp.min_age <= 18 and cp.max_age >= 120))
        -- never seen again once liked or skipped; never across a block or report, either way
        and not exists (select 1 from public.user_interactions ui where ui.user_id = uid and ui.target_id = p.id)
        and not exists (select 1 from public.blocked_users bu where bu.blocker_id = uid and bu.blocked_id = p.id)
        and not exists (select 1 from public.blocked_users bu where bu.blocker_id = p.id and bu.blocked_id = uid)
        and not exists (select 1 from public.reports r where r.reporter_id = uid and r.reported_id = p.id)
        and not exists (select 1 from public.reports r where r.reporter_id = p.id and r.reported_id = uid)
        and not exists (select 1 from public.account_deletion_requests d where d.user_id = p.id and d.status = 'pending')
    ),
    placed as (
      select pool.*, public.get_distance_band(pool.km) as band from pool
      where want_band is null or me.location_lat is null
        or (pool.km is not null and public.get_distance_band_rank(public.get_distance_band(pool.km)) <= want_band)
    ),
    -- One row per (candidate, source), then one GROUP BY: no join between derived sets, so a
    -- misestimated pool size cannot turn into a quadratic nested loop.
    contributions as (
      select pl.id, true as in_pool, pl.band, pl.show_distance, pl.seen, pl.norm,
        coalesce(me.relationship_goals = pl.relationship_goals, false) as goals_match,
        0 as common, 0 as shared_answers, 0 as earned_a, 0 as possible_a, 0 as earned_b, 0 as possible_b,
        (select count(*)::int from unnest(pl.norm) x where x = any (my_interests)) as shared_count
      from placed pl
      union all
      select xb.user_id, false, null, null, null, null, null,
        1,
        case when xb.answer = any (xa.acceptable_answers) and xa.answer = any (xb.acceptable_answers) then 1 else 0 end,
        case when xb.answer = any (xa.acceptable_answers) then public.get_importance_weight(xa.importance) else 0 end,
        public.get_importance_weight(xa.importance),
        case when xa.answer = any (xb.acceptable_answers) then public.get_importance_weight(xb.importance) else 0 end,
        public.get_importance_weight(xb.importance),
        0
      from public.profile_answers xa
      join public.profile_answers xb on xb.question_id = xa.question_id and xb.user_id <> uid
      where xa.user_id = uid
    ),
    totals as (
      select c.id,
        bool_or(c.in_pool) as in_pool,
        max(c.band) as band, bool_or(c.show_distance) as show_distance, max(c.seen) as seen,
        max(c.norm) as norm,
        bool_or(c.goals_match) as goals_match,
        sum(c.common)::int as common, sum(c.shared_answers)::int as shared_answers,
        sum(c.earned_a)::int as earned_a, sum(c.possible_a)::int as possible_a,
        sum(c.earned_b)::int as earned_b, sum(c.possible_b)::int as possible_b,
        sum(c.shared_count)::int as shared_count
      from contributions c
      group by c.id
    ),
    ranked as (
      select t.*,
        -- both lists are distinct already, so the union is the sum less the overlap
        cardinality(my_interests) + cardinality(t.norm) - t.shared_count as all_interests,
        public.compute_compatibility_score(t.earned_a, t.possible_a, t.earned_b, t.possible_b, t.shared_count,
          cardinality(my_interests) + cardinality(t.norm) - t.shared_count, t.goals_match) as score
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
      case when pg.show_distance and me.show_distance then pg.band end,
      pg.score,
      jsonb_build_object(
        'common_questions', pg.common,
        'shared_answers', pg.shared_answers,
        'answers_score', case when pg.possible_a + pg.possible_b = 0 then null
          else (100 * (pg.earned_a + pg.earned_b)) / (pg.possible_a + pg.possible_b) end,
        'shared_interests', coalesce((select jsonb_agg(x order by x) from unnest(pg.norm) x where x = any (my_interests)), '[]'),
        'interests_score', case when pg.all_interests = 0 then 0 else (100 * pg.shared_count) / pg.all_interests end,
        'goals_match', pg.goals_match)
    from page pg
    join public.public_profiles pp on pp.id = pg.id
    order by pg.score desc, pg.seen desc nulls last, pg.id;
end;
$$;

create index account_deletion_requests_user_status_idx on public.account_deletion_requests (user_id, status);
