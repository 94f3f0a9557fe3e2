// Benchmark: password sign-ins through the full server (POST /auth/v1/token?grant_type=password) against
// raw argon2id verification with the same parameters and concurrency, in the same run, plus the
// event-loop lag p99 during the sign-ins. The last line gives the ratio (goal >= 0.8x, lag p99 <= 20 ms).
// PGlite always; PostgreSQL instead when BENCH_DATABASE_URL is set. BENCH_DURATION sets the measured seconds
// of each side (16), BENCH_ROUNDS how many turns they take in them (4), BENCH_WARMUP the seconds of sign-ins
// before it (20).
//
// "Raw" is the better of two ways to verify with nothing else around: @node-rs/argon2's own async call
// (libuv's thread pool) and the server's password pool (server/auth/password-pool.ts). The load comes
// from autocannon in this process, as in bench/rest-read: a fetch() client cost the event loop about as
// much as the server's own work did, which would be charged to the server.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { hash, verify } from '@node-rs/argon2';
import { ARGON2_OPTIONS, passwordPool } from '../../server/auth/passwords.ts';
import { startTestServer } from '../../tests/support/test-server.ts';

const pgUrl = process.env['BENCH_DATABASE_URL'];
const duration = Number(process.env['BENCH_DURATION'] ?? 16);
// Hashing is CPU-bound: a few more in flight than cores keeps every core busy; more only queues.
const CONCURRENCY = Number(process.env['BENCH_CONCURRENCY'] ?? 4);
// Turns, in the order raw, full, full, raw, raw, full, ...: a machine whose speed drifts during the run (a
// shared 2-core machine's did by a fifth within a minute) weighs on both sides alike, and more turns leave
// less of the drift in the ratio.
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 4);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('BENCH_ROUNDS must be a positive integer');
const WARMUP_SECONDS = Number(process.env['BENCH_WARMUP'] ?? 20);
const USERS = 8;
const PASSWORD = 'bench password that is long enough 7';

/** Runs `task` from `CONCURRENCY` loops for `seconds`; returns completed tasks per second. */
async function runFor(seconds: number, task: () => Promise<unknown>): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await task();
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
    // Each request signs in the next of the users, so sessions spread over several accounts.
    let next = 0;
    const bodies = emails.map((email) => JSON.stringify({ email, password: PASSWORD }));
    const signIns = async (seconds: number) => {
      const r = await autocannon({
        url: t.url,
        connections: CONCURRENCY,
        duration: seconds,
        headers: { apikey: t.anonKey, 'content-type': 'application/json' },
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => ({
              ...req,
              path: '/auth/v1/token?grant_type=password',
              body: bodies[next++ % USERS],
            }),
          },
        ],
      });
      if (r.errors > 0 || r.non2xx > 0 || r.timeouts > 0)
        throw new Error(`sign-ins: ${r.errors} errors, ${r.non2xx} non-2xx, ${r.timeouts} timeouts`);
      return r.requests.average;
    };
    const stored = await hash(PASSWORD, ARGON2_OPTIONS);
    const viaLibuv = async () => {
      if (!(await verify(stored, PASSWORD))) throw new Error('argon2 verify failed');
    };
    const viaPool = async () => {
      if (!(await passwordPool.verify(stored, PASSWORD))) throw new Error('argon2 verify failed');
    };
    // Warm up every path (JIT, pool threads, statement caches) before measuring. The server's takes long:
    // V8 keeps optimizing PGlite's WASM and the server's code for about 15 s of sign-ins (its helper threads'
    // CPU falls by two thirds meanwhile, decision 0029), and a measure taken before it is over is of the
    // warm-up, not of the server. The windows' rates are printed so the curve shows.
    const warmups: number[] = [];
    for (let s = 0; s < WARMUP_SECONDS; s += 2) warmups.push(await signIns(2));
    await runFor(0.5, viaLibuv);
    await runFor(0.5, viaPool);

    // Alternating rounds, so a change in machine load hits every side alike. Lag is also taken during
    // the raw runs: on a loaded machine that floor is scheduler noise, not the server.
    const slice = Math.max(1, Math.round(duration / ROUNDS));
    const rawLag = monitorEventLoopDelay({ resolution: 10 });
    const lag = monitorEventLoopDelay({ resolution: 10 });
    let libuv = 0;
    let pool = 0;
    let full = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const measureRaw = async () => {
        rawLag.enable();
        libuv += (await runFor(slice, viaLibuv)) / ROUNDS;
        pool += (await runFor(slice, viaPool)) / ROUNDS;
        rawLag.disable();
      };
      if (round % 2 === 0) await measureRaw();
      lag.enable();
      full += (await signIns(slice)) / ROUNDS;
      lag.disable();
      if (round % 2 === 1) await measureRaw();
    }
    const raw = Math.max(libuv, pool);
    const lagP99 = lag.percentile(99) / 1e6;
    const rawLagP99 = rawLag.percentile(99) / 1e6;

    console.log(`database: ${t.db.kind}, concurrency ${CONCURRENCY}, ${ROUNDS} rounds of ${slice} s`);
    console.log(
      `sign-ins during the warm-up (${WARMUP_SECONDS} s, 2 s windows): ${warmups.map((r) => r.toFixed(0)).join(', ')} /s`,
    );
    console.log(`argon2id verify (raw, libuv pool):    ${libuv.toFixed(1)} /s`);
    console.log(`argon2id verify (raw, server pool):   ${pool.toFixed(1)} /s`);
    console.log(`sign-in through the server:           ${full.toFixed(1)} /s`);
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
