// delete-account, cancel-deletion and newsletter-subscribe through supabase-js against the real server.
import fc from 'fast-check';
import { FunctionsHttpError, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnonClient, createMember, type TestMember } from '../fixtures/members.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

/** The status and JSON body of a function answer, whether supabase-js saw it as success or error. */
async function invoke(client: SupabaseClient, name: string, body?: unknown) {
  const { data, error, response } = await client.functions.invoke(
    name,
    body === undefined ? {} : { body: body as Record<string, unknown> },
  );
  if (error instanceof FunctionsHttpError) {
    const res = error.context as Response;
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  if (error) throw error;
  return { status: response?.status ?? 0, body: data as Record<string, unknown> };
}

async function getRequests(t: TestServer, userId: string) {
  return (
    await t.db.query<{ status: string; scheduled_for: Date | string; requested_at: Date | string }>(
      'select status, scheduled_for, requested_at from public.account_deletion_requests where user_id = $1 order by requested_at',
      [userId],
    )
  ).rows;
}

describe.each(getDatabaseKinds())('account functions on %s', (kind) => {
  let t: TestServer;
  let a: TestMember;
  beforeAll(async () => {
    t = await startTestServer(kind, { DELETION_GRACE_DAYS: '14' });
    a = await createMember(t, 'Ada');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses delete-account and cancel-deletion without a session', async () => {
    const anon = createAnonClient(t);
    expect(await invoke(anon, 'delete-account', { password: a.password })).toEqual({
      status: 401,
      body: { success: false, error: 'Not authenticated', data: null },
    });
    expect((await invoke(anon, 'cancel-deletion')).status).toBe(401);
    expect(await getRequests(t, a.id)).toEqual([]);
  });

  it('refuses a wrong or missing password and schedules nothing', async () => {
    const wrong = await invoke(a.client, 'delete-account', { password: 'not-my-password-1' });
    expect(wrong).toEqual({ status: 403, body: { success: false, error: 'Incorrect password', data: null } });
    for (const body of [
      {},
      { password: '' },
      { password: 42 },
      { password: 'x'.repeat(2000) },
      'text',
      [1],
    ]) {
      const r = await invoke(a.client, 'delete-account', body);
      expect(r.status).toBe(400);
      expect(r.body['success']).toBe(false);
    }
    expect(await getRequests(t, a.id)).toEqual([]);
  });

  it('schedules the deletion the configured number of days ahead with the right password', async () => {
    const before = Date.now();
    const r = await invoke(a.client, 'delete-account', { password: a.password });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, error: null });
    const data = r.body['data'] as Record<string, string>;
    expect(data['status']).toBe('pending');
    expect(typeof data['request_id']).toBe('string');
    const days = (Date.parse(data['scheduled_for']!) - Date.parse(data['requested_at']!)) / 86_400_000;
    expect(days).toBeCloseTo(14, 3);
    expect(Date.parse(data['requested_at']!)).toBeGreaterThanOrEqual(before - 5000);
    // The member's own session still works (the password check opens no session and ends none).
    expect((await a.client.auth.getUser()).error).toBeNull();

    // Asking again answers the same pending request instead of making a second one.
    const again = await invoke(a.client, 'delete-account', { password: a.password });
    expect((again.body['data'] as Record<string, string>)['request_id']).toBe(data['request_id']);
    expect(await getRequests(t, a.id)).toHaveLength(1);
  });

  it('cancels the pending deletion, then says there is none', async () => {
    expect(await invoke(a.client, 'cancel-deletion')).toEqual({
      status: 200,
      body: { success: true, error: null },
    });
    expect((await getRequests(t, a.id)).map((r) => r.status)).toEqual(['cancelled']);
    expect(await invoke(a.client, 'cancel-deletion')).toEqual({
      status: 404,
      body: { success: false, error: 'No pending account deletion' },
    });
  });

  it('records a newsletter address with its consent time, once, for anonymous visitors', async () => {
    const anon = createAnonClient(t);
    const email = `reader-${Date.now()}@example.test`;
    expect(await invoke(anon, 'newsletter-subscribe', { email })).toEqual({
      status: 200,
      body: { success: true, error: null },
    });
    expect(await invoke(anon, 'newsletter-subscribe', { email: email.toUpperCase() })).toEqual({
      status: 200,
      body: { success: true, error: null },
    });
    const rows = await t.db.query<{ consented_at: Date | null }>(
      'select consented_at from public.newsletter_subscribers where lower(email) = lower($1)',
      [email],
    );
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]!.consented_at).not.toBeNull();
  });

  it('answers only 4xx to arbitrary bodies and changes nothing', async () => {
    const before = await getRequests(t, a.id);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('delete-account', 'newsletter-subscribe', 'cancel-deletion'),
        fc.oneof(
          fc.jsonValue().map((v) => JSON.stringify(v)),
          fc.string(),
        ),
        async (name, body) => {
          const res = await fetch(`${t.url}/functions/v1/${name}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${a.accessToken}`, 'content-type': 'application/json' },
            body,
          });
          await res.arrayBuffer();
          // cancel-deletion ignores its body: nothing is pending, so it is always the 404 answer.
          return res.status >= 400 && res.status < 500;
        },
      ),
      { numRuns: 40 },
    );
    expect(await getRequests(t, a.id)).toEqual(before);
  });

  it.each([
    {},
    { email: 'not-an-address' },
    { email: 'a@b' },
    { email: `${'x'.repeat(250)}@example.test` },
    { email: 7 },
  ])('refuses the newsletter body %j with 400', async (body) => {
    const r = await invoke(createAnonClient(t), 'newsletter-subscribe', body);
    expect(r).toEqual({
      status: 400,
      body: { success: false, error: 'Please enter a valid email address.' },
    });
  });
});
