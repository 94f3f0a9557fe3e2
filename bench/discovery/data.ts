// The discovery benchmark's data: synthetic members and one caller, as set-based SQL (PostgreSQL).

/**
 * Members in bulk, set-based. Row by row through the sign-up triggers 1M members take far too long, so
 * triggers (and foreign-key checks) are off for the load and the rows they would write are written here:
 * profiles, their public projection (as sync_public_profile makes it), answers, some members'
 * preferences. Activity is spread over 90 days (5% never seen), positions over a 15 x 20 degree area.
 * Ids come from the row number, and everything else from the id, so every run of a size has the same members
 * in the same places, and the same caller (the first id): with random ids the caller lived somewhere else each
 * run, and where she lived moved the figures more than most changes do (the same code and database: a heavy
 * swiper's '50-100 km' p50 24.5 ms for one caller, 34.1 ms for another, as the last week filled her pool or not).
 */
export function getGenerateSql(profiles: number): string {
  return `
    begin;
    set local session_replication_role = replica;
    create temporary table bench_ids on commit drop as
      select g, md5('heartsync-bench-' || g)::uuid as id from generate_series(1, ${profiles}) g;
    insert into auth.users (id, email, aud, role, email_confirmed_at)
      select id, 'bench' || g || '@bench.invalid', 'authenticated', 'authenticated', now() from bench_ids;
    -- One member in five states preferences: genders wanted and an age range around their own.
    insert into public.match_preferences (user_id, min_age, max_age, genders, relationship_goals)
      select id, 18 + abs(hashtext(id::text || 'm')::bigint) % 15, 40 + abs(hashtext(id::text || 'x')::bigint) % 81,
        case abs(hashtext(id::text || 'w')::bigint) % 4 when 0 then array['woman'] when 1 then array['man']
          when 2 then array['woman', 'man'] else '{}' end,
        '{}'
      from bench_ids where g % 5 = 0;
    insert into public.profile_answers (user_id, question_id, answer, acceptable_answers, importance)
      select b.id, q.id, (abs(hashtext(b.id::text || q.id::text || 'a')::bigint) % 3)::smallint,
        array[0, 1]::smallint[], (abs(hashtext(b.id::text || q.id::text)::bigint) % 4)::smallint
      from bench_ids b cross join (select id from public.compatibility_questions where id <= 5) q;
    -- With the triggers off, each member's copy of their answers and preferences (decision 0117) is written here.
    insert into public.profiles (id, email, name, birthday, gender, looking_for, relationship_goals, interests,
        location_lat, location_lng, show_online_status, last_seen, discovery_answers, discovery_accepts_genders,
        discovery_accepts_min_age, discovery_accepts_max_age)
      select b.id, 'bench' || g || '@bench.invalid', 'Member ' || g,
        date '1970-01-01' + (abs(hashtext(id::text)::bigint) % 12000)::int,
        (array['woman', 'man', 'non-binary'])[1 + abs(hashtext(id::text || 'g')::bigint) % 3],
        array['woman', 'man'],
        (array['long-term', 'short-term', 'marriage', 'casual'])[1 + abs(hashtext(id::text || 'r')::bigint) % 4],
        (array['music', 'travel', 'hiking', 'films', 'cooking'])[1:1 + abs(hashtext(id::text || 'i')::bigint) % 5],
        round((45 + (abs(hashtext(id::text || 'a')::bigint) % 150) / 10.0)::numeric, 1),
        round((-5 + (abs(hashtext(id::text || 'o')::bigint) % 200) / 10.0)::numeric, 1),
        abs(hashtext(id::text || 'v')::bigint) % 10 <> 0,
        case when abs(hashtext(id::text || 's')::bigint) % 20 <> 0 then
          now() - (abs(hashtext(id::text || 't')::bigint) % (90 * 86400)) * interval '1 second' end,
        coalesce(a.packed, '{}'), m.genders, m.min_age, m.max_age
      from bench_ids b
      left join (
        select a.user_id, array_agg(app_private.pack_discovery_answer(a.question_id, a.answer, a.acceptable_answers,
            a.importance) order by a.question_id) as packed
        from public.profile_answers a group by a.user_id
      ) a on a.user_id = b.id
      left join public.match_preferences m on m.user_id = b.id;
    insert into public.public_profiles (id, name, age, gender, photos, bio, interests, career, education_level,
        languages, height, height_unit, relationship_goals, looking_for, city, country, is_verified, last_seen)
      select id, split_part(coalesce(name, ''), ' ', 1), public.get_age(birthday), gender, photos, bio, interests,
        career, education_level, languages, height, height_unit, relationship_goals, looking_for, city, country,
        is_verified, case when show_online_status then last_seen end
      from public.profiles;
    commit;
  `;
}

/**
 * The caller: a member who has swiped through the 2,000 most recently active members (so the pool starts
 * behind them), blocked 20, been blocked by 20 and reported by 5, with a distance preference so the band
 * filter applies. Those are the members the caller would otherwise see first.
 */
export function getCallerSql(me: string): string {
  return `
    begin;
    set local session_replication_role = replica;
    update public.profiles set gender = 'man', birthday = date '1992-05-17', interests = array['music', 'hiking', 'chess'],
      relationship_goals = 'long-term', last_seen = now() where id = '${me}';
    insert into public.match_preferences (user_id, min_age, max_age, genders, max_distance_band)
      values ('${me}', 25, 45, '{}', '100+ km')
      on conflict (user_id) do update set min_age = excluded.min_age, max_age = excluded.max_age,
        genders = excluded.genders, max_distance_band = excluded.max_distance_band;
    update public.profiles p set discovery_accepts_genders = m.genders, discovery_accepts_min_age = m.min_age,
      discovery_accepts_max_age = m.max_age
      from public.match_preferences m where m.user_id = p.id and p.id = '${me}';
    create temporary table bench_recent on commit drop as
      select id, row_number() over (order by last_seen desc nulls last, id) as r
      from public.profiles where id <> '${me}' order by last_seen desc nulls last, id limit 2045;
    insert into public.user_interactions (user_id, target_id, interaction_type)
      select '${me}', id, case when r % 3 = 0 then 'like' else 'skip' end from bench_recent where r <= 2000;
    insert into public.blocked_users (blocker_id, blocked_id)
      select '${me}', id from bench_recent where r between 2001 and 2020
      union all select id, '${me}' from bench_recent where r between 2021 and 2040;
    insert into public.reports (reporter_id, reported_id, category)
      select id, '${me}', 'spam' from bench_recent where r > 2040;
    commit;
    analyze public.user_interactions, public.blocked_users, public.reports, public.match_preferences;
  `;
}

/**
 * The same caller after a lot of swiping: skips of the next most recently active members until she has
 * decided on `swipes` members in all (the heavy-swiper shapes; a long exclusion list changes the planner's
 * estimates, 0135).
 */
export function getHeavySwiperSql(me: string, swipes: number): string {
  return `
    begin;
    set local session_replication_role = replica;
    insert into public.user_interactions (user_id, target_id, interaction_type)
      select '${me}', p.id, 'skip' from public.profiles p
      where p.id <> '${me}'
        and not exists (select 1 from public.user_interactions u where u.user_id = '${me}' and u.target_id = p.id)
      order by p.last_seen desc nulls last, p.id
      limit greatest(0, ${swipes} - (select count(*) from public.user_interactions u where u.user_id = '${me}'));
    commit;
    analyze public.user_interactions;
  `;
}
