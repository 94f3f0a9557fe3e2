// Benchmark: get_discovery_candidates over 100k and 1M synthetic profiles on PostgreSQL, called through the
// REST RPC endpoint of the full server vs the same function called directly in SQL as the same member,
// interleaved in one run. Prints p50/p95/p99 of both at each size and, on the last line, the REST/raw
// ratio of the p50s at each size and the raw p99 at the largest (goal: ratio <= 1.5x, raw p99 <= 50 ms at 1M).
// BENCH_DATABASE_URL (PostgreSQL) is required; BENCH_SIZES (default "100000,1000000"), BENCH_CALLS (default 50).
// Each size gets a fresh database (created next to BENCH_DATABASE_URL and dropped afterwards).
import { performance } from 'node:perf_hooks';

const pgUrl = process.env['BENCH_DATABASE_URL'];
if (!pgUrl) {
  console.error('Set BENCH_DATABASE_URL=postgres://... (the discovery benchmark runs on PostgreSQL).');
  process.exit(1);
}
// The test helpers create (and drop) a fresh migrated database next to this URL.
process.env['TEST_DATABASE_URL'] = pgUrl;
const { startTestServer } = await import('../../tests/support/test-server.ts');
const { asActor, member } = await import('../../tests/support/as-role.ts');
const { hashPassword } = await import('../../server/auth/passwords.ts');

const SIZES = (process.env['BENCH_SIZES'] ?? '100000,1000000').split(',').map((s) => Number(s.trim()));
const CALLS = Number(process.env['BENCH_CALLS'] ?? 50);
if (![...SIZES, CALLS].every((n) => Number.isInteger(n) && n > 0) || SIZES.some((n) => n < 3000)) {
  throw new Error('BENCH_SIZES takes integers of at least 3000, BENCH_CALLS a positive integer');
}

function getPercentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Summary {
  p50: number;
  p95: number;
  p99: number;
}

function summarize(label: string, ms: number[]): Summary {
  const s = [...ms].sort((a, b) => a - b);
  const r = { p50: getPercentile(s, 50), p95: getPercentile(s, 95), p99: getPercentile(s, 99) };
  console.log(
    `  ${label}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms over ${ms.length} calls`,
  );
  return r;
}

/**
 * Members in bulk, set-based. Row by row through the sign-up triggers 1M members take far too long, so
 * triggers (and foreign-key checks) are off for the load and the rows they would write are written here:
 * profiles, their public projection (as sync_public_profile makes it), answers, some members'
 * preferences. Activity is spread over 90 days (5% never seen), positions over a 15 x 20 degree area.
 */
function getGenerateSql(profiles: number): string {
  return `
    begin;
    set local session_replication_role = replica;
    create temporary table bench_ids on commit drop as
      select g, gen_random_uuid() as id from generate_series(1, ${profiles}) g;
    insert into auth.users (id, email, aud, role, email_confirmed_at)
      select id, 'bench' || g || '@bench.invalid', 'authenticated', 'authenticated', now() from bench_ids;
    insert into public.profiles (id, email, name, birthday, gender, looking_for, relationship_goals, interests,
        location_lat, location_lng, show_online_status, last_seen)
      select id, 'bench' || g || '@bench.invalid', 'Member ' || g,
        date '1970-01-01' + (abs(hashtext(id::text)::bigint) % 12000)::int,
        (array['woman', 'man', 'non-binary'])[1 + abs(hashtext(id::text || 'g')::bigint) % 3],
        array['woman', 'man'],
        (array['long-term', 'short-term', 'marriage', 'casual'])[1 + abs(hashtext(id::text || 'r')::bigint) % 4],
        (array['music', 'travel', 'hiking', 'films', 'cooking'])[1:1 + abs(hashtext(id::text || 'i')::bigint) % 5],
        round((45 + (abs(hashtext(id::text || 'a')::bigint) % 150) / 10.0)::numeric, 1),
        round((-5 + (abs(hashtext(id::text || 'o')::bigint) % 200) / 10.0)::numeric, 1),
        abs(hashtext(id::text || 'v')::bigint) % 10 <> 0,
        case when abs(hashtext(id::text || 's')::bigint) % 20 <> 0 then
          now() - (abs(hashtext(id::text || 't')::bigint) % (90 * 86400)) * interval '1 second' end
      from bench_ids;
    insert into public.public_profiles (id, name, age, gender, photos, bio, interests, career, education_level,
        languages, height, height_unit, relationship_goals, looking_for, city, country, is_verified, last_seen)
      select id, split_part(coalesce(name, ''), ' ', 1), public.get_age(birthday), gender, photos, bio, interests,
        career, education_level, languages, height, height_unit, relationship_goals, looking_for, city, country,
        is_verified, case when show_online_status then last_seen end
      from public.profiles;
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
    commit;
  `;
}

/**
 * The caller: a member who has swiped through the 2,000 most recently active members (so the pool starts
 * behind them), blocked 20, been blocked by 20 and reported by 5, with a distance preference so the band
 * filter applies. Those are the members the caller would otherwise see first.
 */
function getCallerSql(me: string): string {
  return `
    begin;
    set local session_replication_role = replica;
    update public.profiles set gender = 'man', birthday = date '1992-05-17', interests = array['music', 'hiking', 'chess'],
      relationship_goals = 'long-term', last_seen = now() where id = '${me}';
    insert into public.match_preferences (user_id, min_age, max_age, genders, max_distance_band)
      values ('${me}', 25, 45, '{}', '100+ km')
      on conflict (user_id) do update set min_age = excluded.min_age, max_age = excluded.max_age,
        genders = excluded.genders, max_distance_band = excluded.max_distance_band;
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

interface SizeResult {
  profiles: number;
  raw: Summary;
  rest: Summary;
}

async function runSize(profiles: number): Promise<SizeResult> {
  const t = await startTestServer('postgres');
  try {
    let started = performance.now();
    await t.db.exec(getGenerateSql(profiles));
    // Statistics and the visibility map, as a live database has them (VACUUM must run on its own).
    await t.db.exec('vacuum analyze');
    console.log(`${profiles} profiles: generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const me = (await t.db.query<{ id: string }>(`select id from public.profiles order by id limit 1`)).rows[0]!
      .id;
    started = performance.now();
    await t.db.exec(getCallerSql(me));
    // A real session (the REST part checks it), signed in with a password like the app does.
    const password = 'bench-discovery-password';
    await t.db.query(`update auth.users set encrypted_password = $2 where id = $1`, [
      me,
      await hashPassword(password),
    ]);
    const email = (await t.db.query<{ email: string }>(`select email from auth.users where id = $1`, [me]))
      .rows[0]!.email;
    const signIn = await fetch(`${t.url}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { apikey: t.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (!signIn.ok) throw new Error(`sign-in ${signIn.status}: ${await signIn.text()}`);
    const token = ((await signIn.json()) as { access_token: string }).access_token;
    const body = JSON.stringify({ limit_count: 20 });
    const callRest = async () => {
      const r = await fetch(`${t.url}/rest/v1/rpc/get_discovery_candidates`, {
        method: 'POST',
        headers: { apikey: t.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      if (!r.ok) throw new Error(`REST ${r.status}: ${await r.text()}`);
      return ((await r.json()) as { id: string }[]).map((c) => c.id);
    };
    const callRaw = async () =>
      asActor(t.db, member(me), async (tx) => {
        const r = await tx.query<{ id: string }>(`select * from public.get_discovery_candidates(20)`);
        return r.rows.map((c) => c.id);
      });

    // Warm-up, and both must answer the same full deck.
    const [restDeck, rawDeck] = [await callRest(), await callRaw()];
    if (rawDeck.length !== 20) throw new Error(`SQL returned ${rawDeck.length} candidates, expected 20`);
    if (restDeck.join() !== rawDeck.join()) throw new Error(`REST and SQL returned different decks`);
    for (let i = 0; i < 3; i++) await Promise.all([callRest(), callRaw()]);

    const rest: number[] = [];
    const raw: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      // Interleaved, so drift on a shared machine hits both alike.
      let s = performance.now();
      await callRaw();
      raw.push(performance.now() - s);
      s = performance.now();
      await callRest();
      rest.push(performance.now() - s);
    }
    const result = { profiles, raw: summarize('raw SQL ', raw), rest: summarize('REST RPC', rest) };
    console.log(`  ratio REST/raw p50: ${(result.rest.p50 / result.raw.p50).toFixed(2)}x`);
    return result;
  } finally {
    await t.close();
  }
}

const results: SizeResult[] = [];
for (const size of SIZES) results.push(await runSize(size));
const largest = results[results.length - 1]!;
console.log(
  `ratio REST/raw p50: ${results.map((r) => `${(r.rest.p50 / r.raw.p50).toFixed(2)}x at ${r.profiles}`).join(', ')} profiles;` +
    ` raw p99 ${largest.raw.p99.toFixed(1)} ms at ${largest.profiles}`,
);
