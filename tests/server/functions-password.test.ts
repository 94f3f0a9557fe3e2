// delete-account re-checks the password in process: no session is opened, and the attempts count like
// sign-ins against the member's own account and their real address, not the server's loopback address.
import { createClient, FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import { hashPassword } from '../../server/auth/passwords.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const LIMIT = 3;

async function deleteAccount(client: SupabaseClient, address: string, password: string) {
  const { data, error } = await client.functions.invoke('delete-account', {
    body: { password },
    headers: { 'x-forwarded-for': address },
  });
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  if (error) throw error;
  return { status: 200, body: data as Record<string, unknown> };
}

const MEMBER_PASSWORD = 'violet-harbour-stone-42';

interface TestMember {
  id: string;
  email: string;
  accessToken: string;
}

/** A confirmed member signed in from `address` (each test member has its own, so no budget is shared). */
async function createMember(t: TestServer, name: string, address: string): Promise<TestMember> {
  const id = crypto.randomUUID();
  const email = `${name.toLowerCase()}-${id.slice(0, 8)}@example.test`;
  await t.db.query(
    `insert into auth.users (id, email, encrypted_password, email_confirmed_at, aud, role)
     values ($1, $2, $3, now(), 'authenticated', 'authenticated')`,
    [id, email, await hashPassword(MEMBER_PASSWORD)],
  );
  const { data, error } = await createClient(t.url, t.anonKey, {
    auth: { persistSession: false },
    realtime: { transport: WebSocket as never },
    global: { headers: { 'x-forwarded-for': address } },
  }).auth.signInWithPassword({ email, password: MEMBER_PASSWORD });
  if (error || !data.session)
    throw new Error(`sign-in of test member failed: ${error?.message ?? 'no session'}`);
  return { id, email, accessToken: data.session.access_token };
}

/** A member's own client, with the signed-in session of `member`, sending from `address` (a trusted proxy says so). */
function clientFrom(t: TestServer, member: TestMember, address: string): SupabaseClient {
  return createClient(t.url, t.anonKey, {
    accessToken: async () => member.accessToken,
    realtime: { transport: WebSocket as never },
    global: { headers: { 'x-forwarded-for': address } },
  });
}

async function countSessions(t: TestServer, userId: string): Promise<number> {
  const r = await t.db.query<{ n: number }>(
    'select count(*)::int as n from auth.sessions where user_id = $1',
    [userId],
  );
  return r.rows[0]?.n ?? -1;
}

describe.each(getDatabaseKinds())('delete-account password check on %s', (kind) => {
  let t: TestServer;
  let a: TestMember;
  let b: TestMember;
  beforeAll(async () => {
    // Loopback is the trusted proxy, so each client's X-Forwarded-For is its address.
    t = await startTestServer(kind, {
      AUTH_RATE_LIMIT_MAX: String(LIMIT),
      AUTH_RATE_LIMIT_WINDOW_SECONDS: '600',
      TRUSTED_PROXIES: '127.0.0.1',
    });
    a = await createMember(t, 'Ada', '10.1.0.1');
    b = await createMember(t, 'Bea', '10.1.0.2');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('opens no session, and a right password schedules the deletion', async () => {
    const before = await countSessions(t, b.id);
    const r = await deleteAccount(clientFrom(t, b, '198.51.100.2'), '198.51.100.2', MEMBER_PASSWORD);
    expect(r.status).toBe(200);
    expect(r.body['success']).toBe(true);
    expect(await countSessions(t, b.id)).toBe(before);
  });

  it('lets more members confirm than one address may sign in: the checks are not all from loopback', async () => {
    for (let i = 0; i <= LIMIT; i++) {
      const address = `10.2.0.${i + 1}`;
      const m = await createMember(t, `Many${i}`, address);
      const r = await deleteAccount(clientFrom(t, m, address), address, MEMBER_PASSWORD);
      expect(r.status).toBe(200);
    }
  });

  it('limits wrong passwords per account, without using up other members’ attempts', async () => {
    const fromA = clientFrom(t, a, '198.51.100.1');
    // A's sign-in was the account's first attempt in the window; these wrong passwords use up the rest.
    for (let i = 0; i < LIMIT - 1; i++) {
      const r = await deleteAccount(fromA, '198.51.100.1', `wrong-password-${i}`);
      expect(r).toEqual({ status: 403, body: { success: false, error: 'Incorrect password', data: null } });
    }
    // The account has used its attempts: even the right password waits now, from any address.
    const blocked = await deleteAccount(clientFrom(t, a, '203.0.113.9'), '203.0.113.9', MEMBER_PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body['error']).toBe('Too many attempts. Please wait and try again.');
    // The failures were recorded for the account, and never with the password.
    const events = await t.db.query<{ event: string; details: Record<string, unknown> }>(
      `select event, details from public.security_events where user_id = $1 and event = 'password_check_failed'`,
      [a.id],
    );
    expect(events.rows).toHaveLength(LIMIT - 1);
    expect(events.rows[0]?.details['ip']).toBe('198.51.100.1');
    expect(JSON.stringify(events.rows)).not.toContain('wrong-password');

    // Through a sign-in from 127.0.0.1 these checks would have spent the loopback's one shared budget;
    // in process they count against A's own address and account only, so B's sign-in still works.
    const signIn = await createClient(t.url, t.anonKey, {
      auth: { persistSession: false },
      realtime: { transport: WebSocket as never },
      global: { headers: { 'x-forwarded-for': '198.51.100.2' } },
    }).auth.signInWithPassword({ email: b.email, password: MEMBER_PASSWORD });
    expect(signIn.error).toBeNull();
  });

  it('counts the checks of one address across accounts, like sign-ins from it', async () => {
    const c = await createMember(t, 'Cy', '10.1.0.3');
    const d = await createMember(t, 'Di', '10.1.0.4');
    const address = '192.0.2.77';
    for (let i = 0; i < LIMIT; i++) {
      const who = i % 2 === 0 ? c : d;
      expect((await deleteAccount(clientFrom(t, who, address), address, `nope-${i}`)).status).toBe(403);
    }
    expect((await deleteAccount(clientFrom(t, d, address), address, MEMBER_PASSWORD)).status).toBe(429);
  });
});
