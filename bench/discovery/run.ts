// Benchmark: get_discovery_candidates over N synthetic profiles (generate_series) on PostgreSQL, called through
// the REST RPC endpoint of the full server vs the same function called directly in SQL as the same member.
// Prints p50/p99 of both and, on the last line, the ratio REST/raw of the p50s.
// BENCH_DATABASE_URL (PostgreSQL) is required; BENCH_PROFILES (default 100000, e.g. 1000000), BENCH_CALLS (default 50).
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

const PROFILES = Number(process.env['BENCH_PROFILES'] ?? 100_000);
const CALLS = Number(process.env['BENCH_CALLS'] ?? 50);

function getPercentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summarize(label: string, ms: number[]): number {
  const s = [...ms].sort((a, b) => a - b);
  const p50 = getPercentile(s, 50);
  console.log(
    `${label}: p50 ${p50.toFixed(1)} ms, p99 ${getPercentile(s, 99).toFixed(1)} ms over ${ms.length} calls`,
  );
  return p50;
}

const t = await startTestServer('postgres');
try {
  const started = performance.now();
  // Members, as sign-up makes them (the auth trigger creates each profile), then their public fields in bulk.
  await t.db.exec(`
    insert into auth.users (id, email, aud, role, email_confirmed_at)
    select gen_random_uuid(), 'bench' || g || '@bench.invalid', 'authenticated', 'authenticated', now()
    from generate_series(1, ${PROFILES}) g;
    update public.profiles p set
      name = 'Member ' || substr(p.id::text, 1, 6),
      birthday = date '1970-01-01' + (abs(hashtext(p.id::text)::bigint) % 12000)::int,
      gender = (array['woman', 'man', 'non-binary'])[1 + abs(hashtext(p.id::text || 'g')::bigint) % 3],
      looking_for = array['woman', 'man'],
      relationship_goals = (array['long-term', 'short-term', 'marriage', 'casual'])[1 + abs(hashtext(p.id::text || 'r')::bigint) % 4],
      interests = (array['music', 'travel', 'hiking', 'films', 'cooking'])[1:1 + abs(hashtext(p.id::text || 'i')::bigint) % 5],
      location_lat = round((45 + (abs(hashtext(p.id::text || 'a')::bigint) % 150) / 10.0)::numeric, 1),
      location_lng = round((-5 + (abs(hashtext(p.id::text || 'o')::bigint) % 200) / 10.0)::numeric, 1);
    insert into public.profile_answers (user_id, question_id, answer, acceptable_answers, importance)
    select p.id, q.id, 0, array[0, 1]::smallint[], (abs(hashtext(p.id::text || q.id::text)::bigint) % 4)::smallint
    from public.profiles p cross join (select id from public.compatibility_questions where id <= 5) q;
    analyze;
  `);
  console.log(`generated ${PROFILES} profiles in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // The caller: one of them, with a distance preference so the band filter is exercised.
  const me = (await t.db.query<{ id: string }>(`select id from public.profiles order by id limit 1`)).rows[0]!
    .id;
  await t.db.query(
    `insert into public.match_preferences (user_id, min_age, max_age, max_distance_band) values ($1, 25, 45, '100+ km')`,
    [me],
  );
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
    return ((await r.json()) as unknown[]).length;
  };
  const callRaw = async () =>
    asActor(t.db, member(me), async (tx) => {
      const r = await tx.query(`select * from public.get_discovery_candidates(20)`);
      return r.rows.length;
    });

  // Warm-up, and both must answer the same deck size.
  const [restRows, rawRows] = [await callRest(), await callRaw()];
  if (restRows !== rawRows) throw new Error(`REST returned ${restRows} rows, SQL ${rawRows}`);
  console.log(`deck size ${rawRows}`);
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
  const rawP50 = summarize('raw SQL', raw);
  const restP50 = summarize('REST RPC', rest);
  console.log(`ratio REST/raw p50: ${(restP50 / rawP50).toFixed(2)}x (${PROFILES} profiles)`);
} finally {
  await t.close();
}
