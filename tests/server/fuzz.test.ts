// Property-based fuzzing of what a client can send (issue 13): arbitrary REST filters, RPC arguments, auth
// bodies and sync requests never get a 5xx, and a refused request changes nothing. fast-check shrinks a
// failure to the smallest request that shows it.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createMember, type Member } from './realtime-support.ts';

const RUNS = 120;
/** A fixed seed keeps CI repeatable; FUZZ_SEED=<n> (or FUZZ_SEED=random) explores other inputs. */
const SEED =
  process.env['FUZZ_SEED'] === 'random' ? Date.now() : Number(process.env['FUZZ_SEED'] ?? 20261126);

/** Text of every kind: unicode, control characters and NUL included, and PostgREST's own syntax. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', '*', '%', '(', ')', ',', '.', ':', '"', "'", '\\', 'null', 'true', '1e999', '-1', '{}'),
);
const json = fc.jsonValue({ maxDepth: 3 });

const TABLES = ['public_profiles', 'profiles', 'user_interactions', 'messages', 'ai_agents', 'matches'];
const COLUMNS = [
  'id',
  'name',
  'bio',
  'age',
  'created_at',
  'user_id',
  'content',
  'nope',
  'or',
  'and',
  'select',
];
const OPERATORS = [
  'eq',
  'neq',
  'gt',
  'lt',
  'like',
  'ilike',
  'match',
  'imatch',
  'in',
  'is',
  'cs',
  'cd',
  'fts',
  'not.eq',
  'xx',
];
const RPCS = [
  'get_discovery_candidates',
  'set_active_agent',
  'get_received_likes',
  'get_unread_likes_count',
  'mark_likes_seen',
  'log_security_events',
  'subscribe_newsletter',
  'can_video_call',
  'get_entitlement',
  'get_public_stats',
  'get_compatibility',
  'no_such_function',
];

describe.each(getDatabaseKinds())('fuzzing client input on %s', (kind) => {
  let t: TestServer;
  let m: Member;
  beforeAll(async () => {
    t = await startTestServer(kind, { AUTH_RATE_LIMIT_MAX: '100000' });
    m = await createMember(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** What a refused request must leave as it was: members' rows, accounts and their sessions. */
  async function fingerprint(): Promise<string> {
    const r = await t.db.query<{ f: string }>(
      `select concat_ws('|',
         (select count(*) from auth.users), (select count(*) from public.profiles),
         (select coalesce(max(updated_at)::text, '') from public.profiles),
         (select count(*) from public.user_interactions), (select count(*) from public.messages),
         (select count(*) from public.ai_agents), (select count(*) from public.profile_answers),
         (select count(*) from public.blocked_users), (select count(*) from public.reports),
         (select count(*) from public.newsletter_subscribers)) as f`,
    );
    return r.rows[0]!.f;
  }

  async function send(path: string, init: RequestInit = {}): Promise<number> {
    const controller = new AbortController();
    const res = await fetch(`${t.url}${path}`, { ...init, signal: controller.signal });
    // A sync stream that opened stays open: its status is all that matters here.
    controller.abort();
    return res.status;
  }

  const member = () => ({ apikey: t.anonKey, authorization: `Bearer ${m.token}` });

  it('REST filters: never a 5xx', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TABLES),
        fc.constantFrom(...COLUMNS),
        fc.constantFrom(...OPERATORS),
        text,
        fc.oneof({ arbitrary: fc.constant('id'), weight: 3 }, { arbitrary: text, weight: 1 }),
        async (table, column, op, value, select) => {
          const q = new URLSearchParams({ select, [column]: `${op}.${value}` });
          const status = await send(`/rest/v1/${table}?${q}`, { headers: member() });
          seen.add(Math.floor(status / 100));
          expect(status, `${table}?${q}`).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    // The generator reaches both answered and refused queries, so the property says something.
    expect([...seen].sort()).toEqual([2, 4]);
  });

  it('RPC arguments: never a 5xx, and a refused call changes nothing', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...RPCS),
        fc.dictionary(text, json, { maxKeys: 4 }),
        async (fn, args) => {
          const before = await fingerprint();
          const status = await send(`/rest/v1/rpc/${fn}`, {
            method: 'POST',
            headers: { ...member(), 'content-type': 'application/json' },
            body: JSON.stringify(args),
          });
          seen.add(Math.floor(status / 100));
          expect(status, `${fn} ${JSON.stringify(args)}`).toBeLessThan(500);
          if (status >= 400) expect(await fingerprint()).toBe(before);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
    expect([...seen].sort()).toEqual([2, 4]);
  });

  it('auth bodies: never a 5xx, and a refused request makes no account', async () => {
    const paths = [
      '/signup',
      '/token?grant_type=password',
      '/recover',
      '/resend',
      '/otp',
      '/verify',
      '/logout',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.oneof(
          fc.record({ email: text, password: text, data: json }, { requiredKeys: [] }),
          json,
          text.map((s) => ({ raw: s })),
        ),
        async (path, body) => {
          const before = await fingerprint();
          const raw =
            typeof body === 'object' && body !== null && 'raw' in body ? String(body.raw) : undefined;
          const status = await send(`/auth/v1${path}`, {
            method: 'POST',
            headers: { apikey: t.anonKey, 'content-type': 'application/json' },
            body: raw ?? JSON.stringify(body),
          });
          expect(status, `${path} ${raw ?? JSON.stringify(body)}`).toBeLessThan(500);
          if (status >= 400) expect(await fingerprint()).toBe(before);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('sync requests: never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.record(
            {
              buckets: fc.array(fc.record({ name: text, after: text }), { maxLength: 3 }),
              client_id: text,
              include_checksum: json,
              parameters: json,
            },
            { requiredKeys: [] },
          ),
          json,
        ),
        text,
        async (body, clientId) => {
          const stream = await send('/sync/stream', {
            method: 'POST',
            headers: { authorization: `Token ${m.token}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          expect(stream, JSON.stringify(body)).toBeLessThan(500);
          const checkpoint = await send(`/write-checkpoint2.json?client_id=${encodeURIComponent(clientId)}`, {
            headers: { authorization: `Token ${m.token}` },
          });
          expect(checkpoint, clientId).toBeLessThan(500);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
