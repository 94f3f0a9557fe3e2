// Brute-force limits on sign-in, sign-up, recover and verify; X-Forwarded-For honoured only from trusted proxies.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createAuthClient, makeEmail, signUpConfirmed } from './auth-support.ts';

const PASSWORD = 'Correct-Horse-42';
// The row's own numbers: 10 attempts in 10 s. A fresh server per test gives each one fresh counters.
const WINDOW_SECONDS = 10;

async function post(t: TestServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}/auth/v1${path}`, {
    method: 'POST',
    headers: { apikey: t.anonKey, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    json: (await res.json()) as Record<string, unknown>,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(getDatabaseKinds())('auth rate limits on %s', (kind) => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer(kind, {
      AUTH_RATE_LIMIT_MAX: '10',
      AUTH_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
    });
  });
  afterEach(async () => {
    await t?.close();
  });

  it('stops guessing after 10 wrong passwords in the window; the right one works once it passes', async () => {
    const email = makeEmail('victim');
    await signUpConfirmed(t, email, PASSWORD);
    for (let i = 0; i < 10; i++) {
      const r = await post(t, '/token?grant_type=password', { email, password: `Wrong-Guess-${i}` });
      expect(r.status).toBe(400);
    }
    const blocked = await createAuthClient(t).auth.signInWithPassword({ email, password: PASSWORD });
    expect(blocked.error?.status).toBe(429);
    expect(blocked.error?.code).toBe('over_request_rate_limit');
    expect(blocked.data.session).toBeNull();
    const raw = await post(t, '/token?grant_type=password', { email, password: PASSWORD });
    expect(raw.status).toBe(429);
    const retryAfter = Number(raw.retryAfter);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);

    await sleep(retryAfter * 1000 + 100);
    const after = await createAuthClient(t).auth.signInWithPassword({ email, password: PASSWORD });
    expect(after.error).toBeNull();
    expect(after.data.session?.access_token).toBeTruthy();
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      // A new address and a new e-mail each time: only the per-peer limit can stop this.
      const r = await post(
        t,
        '/token?grant_type=password',
        { email: makeEmail('spray'), password: 'Wrong-Guess-1' },
        { 'x-forwarded-for': `203.0.113.${i + 1}` },
      );
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('limits sign-up, recover and verify too', async () => {
    const attempts = async (fn: (i: number) => Promise<number>) => {
      const out: number[] = [];
      for (let i = 0; i < 11; i++) out.push(await fn(i));
      return out;
    };
    const signups = await attempts(
      async () => (await post(t, '/signup', { email: makeEmail('flood'), password: PASSWORD })).status,
    );
    expect(signups.at(-1)).toBe(429);
    expect(signups.slice(0, 10).every((s) => s === 200)).toBe(true);
    const recovers = await attempts(
      async () => (await post(t, '/recover', { email: makeEmail('flood') })).status,
    );
    expect(recovers.at(-1)).toBe(429);
    const verifies = await attempts(
      async (i) =>
        (await fetch(`${t.url}/auth/v1/verify?token=guess-${i}&type=recovery`, { redirect: 'manual' }))
          .status,
    );
    expect(verifies.slice(0, 10).every((s) => s === 303)).toBe(true);
    expect(verifies.at(-1)).toBe(429);
  });
});

describe('behind a trusted proxy', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('pglite', {
      AUTH_RATE_LIMIT_MAX: '10',
      AUTH_RATE_LIMIT_WINDOW_SECONDS: '60',
      TRUSTED_PROXIES: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts each forwarded client address separately', async () => {
    for (let i = 0; i < 12; i++) {
      const r = await post(
        t,
        '/token?grant_type=password',
        { email: makeEmail('client'), password: 'Wrong-Guess-1' },
        { 'x-forwarded-for': `198.51.100.${i + 1}` },
      );
      expect(r.status).toBe(400);
    }
  });

  it('still limits one e-mail attacked from many addresses', async () => {
    const email = makeEmail('target');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await post(
        t,
        '/token?grant_type=password',
        { email, password: 'Wrong-Guess-1' },
        { 'x-forwarded-for': `192.0.2.${i + 1}` },
      );
      statuses.push(r.status);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});
