// Benchmark: password sign-ins through the full server (POST /auth/v1/token?grant_type=password) against
// raw argon2id verification with the same parameters and concurrency, in the same run, plus the
// event-loop lag p99 during the sign-ins. The last line gives the ratio (goal >= 0.8x, lag p99 <= 20 ms).
// PGlite always; PostgreSQL instead when BENCH_DATABASE_URL is set. BENCH_DURATION sets seconds per run.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { hash, verify } from '@node-rs/argon2';
import { startTestServer } from '../../tests/support/test-server.ts';

const pgUrl = process.env['BENCH_DATABASE_URL'];
const duration = Number(process.env['BENCH_DURATION'] ?? 8) * 1000;
// argon2 runs on libuv's worker threads (4 by default): more in flight only queues.
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 4);
const USERS = 8;
const PASSWORD = 'bench password that is long enough 7';
// The server's parameters (server/auth/passwords.ts): argon2id, 19 MiB, t=2, p=1.
const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Runs `task` from `CONCURRENCY` loops for `ms`; returns completed tasks per second. */
async function runFor(ms: number, task: (i: number) => Promise<void>): Promise<number> {
  const end = performance.now() + ms;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, worker) => {
      for (let i = worker; performance.now() < end; i += CONCURRENCY) {
        await task(i);
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

async function main() {
  if (pgUrl) process.env['TEST_DATABASE_URL'] = pgUrl;
  const t = await startTestServer(pgUrl ? 'postgres' : 'pglite', {
    // The bench signs in far more often than a person: lift the per-address and per-email limit.
    AUTH_RATE_LIMIT_MAX: '100000',
    AUTH_RATE_LIMIT_WINDOW_SECONDS: '1',
  });
  try {
    const emails: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const email = `bench-${i}-${Date.now().toString(36)}@example.test`;
      const res = await fetch(`${t.url}/auth/v1/admin/users`, {
        method: 'POST',
        headers: {
          apikey: t.serviceRoleKey,
          authorization: `Bearer ${t.serviceRoleKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ email, password: PASSWORD, email_confirm: true }),
      });
      if (res.status !== 200) throw new Error(`seeding a user answered ${res.status}: ${await res.text()}`);
      emails.push(email);
    }

    const signIn = async (i: number) => {
      const res = await fetch(`${t.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: t.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: emails[i % USERS], password: PASSWORD }),
      });
      const body = (await res.json()) as { access_token?: string };
      if (res.status !== 200 || !body.access_token) throw new Error(`sign-in answered ${res.status}`);
    };
    // Warm up both paths (JIT, pool, statement caches) before measuring.
    await runFor(1000, signIn);
    const stored = await hash(PASSWORD, ARGON2_OPTIONS);
    const verifyOnce = async () => {
      if (!(await verify(stored, PASSWORD))) throw new Error('argon2 verify failed');
    };
    await runFor(500, verifyOnce);

    // Lag is also taken during the raw run: on a loaded machine that floor is scheduler noise, not the server.
    const rawLag = monitorEventLoopDelay({ resolution: 10 });
    rawLag.enable();
    const raw = await runFor(duration, verifyOnce);
    rawLag.disable();
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const full = await runFor(duration, signIn);
    lag.disable();
    const lagP99 = lag.percentile(99) / 1e6;
    const rawLagP99 = rawLag.percentile(99) / 1e6;

    const kind = t.db.kind;
    console.log(`database: ${kind}, concurrency ${CONCURRENCY}, ${duration / 1000} s per run`);
    console.log(`argon2id verify (raw):        ${raw.toFixed(1)} /s`);
    console.log(`sign-in through the server:   ${full.toFixed(1)} /s`);
    console.log(`event-loop lag p99 during raw verify (machine floor): ${rawLagP99.toFixed(1)} ms`);
    console.log(`event-loop lag p99 during sign-ins: ${lagP99.toFixed(1)} ms (goal <= 20 ms)`);
    const ratio = full / raw;
    console.log(
      `sign-in/raw ratio: ${ratio.toFixed(2)}x (goal >= 0.8x) ${ratio >= 0.8 && lagP99 <= 20 ? 'PASS' : 'FAIL'}`,
    );
  } finally {
    await t.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
