// Security events through REST as the browser sends them (log_security_events, one request a batch): the
// caps per member and per network address hold, and a client cannot name its own address to escape them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createMember } from './realtime-support.ts';

describe.each(getDatabaseKinds())('security events on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  const send = async (token: string, events: unknown, extraHeaders: Record<string, string> = {}) => {
    const res = await fetch(`${t.url}/rest/v1/rpc/log_security_events`, {
      method: 'POST',
      headers: {
        apikey: t.anonKey,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...extraHeaders,
      },
      body: JSON.stringify({ events }),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const batch = (n: number, tag: string) =>
    Array.from({ length: n }, (_, i) => ({ event: 'page_visit', details: { tag, i } }));
  const count = async (where: string, params: unknown[]) =>
    Number(
      (
        await t.db.query<{ n: string }>(
          `select count(*) n from public.security_events where ${where}`,
          params,
        )
      ).rows[0]!.n,
    );

  it('records a batch in one request, and refuses a malformed one with a clear 400', async () => {
    const m = await createMember(t);
    const ok = await send(m.token, batch(3, 'one'));
    expect(ok).toEqual({ status: 200, body: 3 });
    expect(await count('user_id = $1', [m.id])).toBe(3);
    expect((await send(m.token, { event: 'x' })).status).toBe(400);
    expect((await send(m.token, batch(21, 'big'))).status).toBe(400);
    expect((await send(m.token, [{ details: {} }])).status).toBe(400);
    expect(await count('user_id = $1', [m.id])).toBe(3);
  });

  it('caps events per network address, whatever address header the client sends', async () => {
    await t.db.query('delete from public.security_events');
    let recorded = 0;
    for (let i = 0; i < 3; i++) {
      const r = await send(t.anonKey, batch(20, `anon-${i}`), {
        'x-heartsync-client-address': `10.0.0.${i}`,
        'cf-connecting-ip': `10.1.0.${i}`,
      });
      expect(r.status).toBe(200);
      recorded += r.body as number;
    }
    // Every request came from this test's one address: 30 a minute, not 60.
    expect(recorded).toBe(30);
    expect(await count('address_hash is not null', [])).toBe(30);
  });

  it('caps events per member', async () => {
    await t.db.query('delete from public.security_events');
    // Earlier events of other members from this address would use the address's budget first: the member
    // cap is seen on a fresh table with the address cap lifted for this test's database.
    await t.db.query(
      'create or replace function public.get_security_event_address_limit() returns int language sql immutable as $$ select 1000 $$',
    );
    const m = await createMember(t);
    let recorded = 0;
    for (let i = 0; i < 4; i++) recorded += (await send(m.token, batch(20, `m-${i}`))).body as number;
    expect(recorded).toBe(60);
    expect(await count('user_id = $1', [m.id])).toBe(60);
  });
});
