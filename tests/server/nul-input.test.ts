// A NUL character anywhere a client can put text is a clear 400 in the service's own shape, never a 500,
// and changes nothing (issue 13); an RPC naming a row that is not there is a 404, not a 500.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createMember, type Member } from './realtime-support.ts';

describe.each(getDatabaseKinds())('NUL and missing rows on %s', (kind) => {
  let t: TestServer;
  let m: Member;
  beforeAll(async () => {
    t = await startTestServer(kind);
    m = await createMember(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = async (path: string, body: unknown, auth?: string) => {
    const res = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: {
        apikey: t.anonKey,
        'content-type': 'application/json',
        ...(auth ? { authorization: auth } : {}),
      },
      body: JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json().catch(() => null)) as Record<string, unknown> | null,
    };
  };

  it('refuses NUL in a sign-up e-mail and name in GoTrue shape, and makes no account', async () => {
    const email = `nul-${crypto.randomUUID()}@example.test`;
    const a = await post('/auth/v1/signup', { email: `${email}\u0000x`, password: 'Str0ng!Passw0rd' });
    expect(a.status).toBe(400);
    expect(a.body).toMatchObject({ code: 400, error_code: 'validation_failed' });
    const b = await post('/auth/v1/signup', {
      email,
      password: 'Str0ng!Passw0rd',
      data: { name: 'Ann\u0000' },
    });
    expect(b.status).toBe(400);
    expect(b.body).toMatchObject({ error_code: 'validation_failed' });
    const { rows } = await t.db.query('select count(*)::int as n from auth.users where email like $1', [
      `nul-%`,
    ]);
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('refuses NUL in the newsletter function and stores nothing', async () => {
    const res = await post(
      '/functions/v1/newsletter-subscribe',
      { email: 'a\u0000@example.test' },
      `Bearer ${t.anonKey}`,
    );
    expect(res.status).toBe(400);
    const { rows } = await t.db.query(
      "select count(*)::int as n from public.newsletter_subscribers where email like 'a%@example.test'",
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('refuses NUL in a REST filter and body in PostgREST shape', async () => {
    const filter = await fetch(`${t.url}/rest/v1/public_profiles?select=id&name=eq.a%00b`, {
      headers: { apikey: t.anonKey, authorization: `Bearer ${m.token}` },
    });
    expect(filter.status).toBe(400);
    expect(await filter.json()).toMatchObject({ code: '22P05' });
    const patch = await fetch(`${t.url}/rest/v1/profiles?id=eq.${m.id}`, {
      method: 'PATCH',
      headers: {
        apikey: t.anonKey,
        authorization: `Bearer ${m.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ bio: 'hello\u0000world' }),
    });
    expect(patch.status).toBe(400);
    const { rows } = await t.db.query('select bio from public.profiles where id = $1', [m.id]);
    expect(rows[0]).toEqual({ bio: null });
  });

  it("refuses NUL in the sync service's client_id (stream and write checkpoint)", async () => {
    const stream = await post('/sync/stream', { client_id: 'c\u0000', buckets: [] }, `Token ${m.token}`);
    expect(stream.status).toBe(400);
    const checkpoint = await fetch(`${t.url}/write-checkpoint2.json?client_id=c%00`, {
      headers: { authorization: `Token ${m.token}` },
    });
    expect(checkpoint.status).toBe(400);
    const control = await fetch(`${t.url}/write-checkpoint2.json?client_id=c%01`, {
      headers: { authorization: `Token ${m.token}` },
    });
    expect(control.status).toBe(400);
  });

  it('answers set_active_agent with an unknown or foreign agent id with a 404', async () => {
    const res = await post(
      '/rest/v1/rpc/set_active_agent',
      { agent_id: crypto.randomUUID() },
      `Bearer ${m.token}`,
    );
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'P0002' });
  });
});
