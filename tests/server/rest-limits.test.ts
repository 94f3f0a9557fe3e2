// One request must not stall the server (issue 13): pattern filters whose cost explodes with the text are
// refused with a clear 400, and a member's statement is cancelled by the statement timeout, answered in
// PostgREST's error shape, while /health and everyone else carry on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createMember, type Member } from './realtime-support.ts';

describe.each(getDatabaseKinds())('REST limits on %s', (kind) => {
  let t: TestServer;
  let m: Member;
  beforeAll(async () => {
    t = await startTestServer(kind, { REST_STATEMENT_TIMEOUT_MS: '300' });
    m = await createMember(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = async (query: string) => {
    const res = await fetch(`${t.url}/rest/v1/public_profiles?select=id&${query}`, {
      headers: { apikey: t.anonKey, authorization: `Bearer ${m.token}` },
    });
    return { status: res.status, body: (await res.json()) as { code?: string; message?: string } };
  };

  it('refuses back-references, long patterns and likes full of wildcards with a clear 400', async () => {
    const backref = await get(`bio=match.${encodeURIComponent('^(a+)+\\1\\1\\1$')}`);
    expect(backref.status).toBe(400);
    expect(backref.body).toMatchObject({
      code: 'PGRST100',
      message: 'The match pattern uses a back-reference',
    });
    expect((await get(`bio=imatch.${encodeURIComponent('(x)\\1')}`)).status).toBe(400);
    expect((await get(`bio=match.${'a'.repeat(201)}`)).status).toBe(400);
    const wild = await get(`bio=like.${encodeURIComponent('%a%b%c%d%e%f%g%h%i%')}`);
    expect(wild.status).toBe(400);
    expect(wild.body.message).toBe('The like pattern has too many wildcards');
    // Ordinary patterns still work.
    expect((await get(`bio=ilike.${encodeURIComponent('*hiking*')}`)).status).toBe(200);
    expect((await get(`bio=match.${encodeURIComponent('^(hi|hello)')}`)).status).toBe(200);
  });

  it.runIf(kind === 'postgres')(
    "cancels a member's long statement (503, 57014) while /health keeps answering",
    async () => {
      await t.db.exec(`create function public.hs_test_slow() returns int language sql as
        'select 1 from pg_sleep(5)'; grant execute on function public.hs_test_slow() to authenticated;`);
      const started = Date.now();
      const slow = fetch(`${t.url}/rest/v1/rpc/hs_test_slow`, {
        method: 'POST',
        headers: {
          apikey: t.anonKey,
          authorization: `Bearer ${m.token}`,
          'content-type': 'application/json',
        },
        body: '{}',
      });
      expect((await fetch(`${t.url}/health`)).status).toBe(200);
      const res = await slow;
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: '57014' });
      expect(Date.now() - started).toBeLessThan(4000);
    },
  );
});
