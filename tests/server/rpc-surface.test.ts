// Internal helpers are not RPC endpoints (issue 13): whether a pair is hidden (blocked or reported) would tell
// a member who lost a match that they were blocked rather than unmatched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createMember, type Member } from './realtime-support.ts';

describe.each(getDatabaseKinds())('RPC surface on %s', (kind) => {
  let t: TestServer;
  let a: Member;
  let b: Member;
  beforeAll(async () => {
    t = await startTestServer(kind);
    a = await createMember(t);
    b = await createMember(t);
    await t.db.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [
      a.id,
      b.id,
    ]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const rpc = async (name: string, body: unknown, token: string) => {
    const res = await fetch(`${t.url}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: { apikey: t.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };

  it('is_hidden_pair answers a blocked member with no verdict', async () => {
    const res = await rpc('is_hidden_pair', { a: a.id, b: b.id }, b.token);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.text).not.toMatch(/^(true|false)$/);
  });

  it('the blocked member still sees nothing of the blocker (the policies kept working)', async () => {
    const res = await fetch(`${t.url}/rest/v1/public_profiles?select=id&id=eq.${a.id}`, {
      headers: { apikey: t.anonKey, authorization: `Bearer ${b.token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });
});
