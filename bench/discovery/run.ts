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
const { getCallerSql, getGenerateSql } = await import('./data.ts');

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

    const me = (await t.db.query<{ id: string }>(`select id from public.profiles order by id limit 1`))
      .rows[0]!.id;
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
