import { describe, expect, it } from 'vitest';
import { SessionNotReadyError, withMemberTokenOnly } from './member-requests.ts';

const ANON = 'anon-key';

function recorder() {
  const sent: string[] = [];
  const fetchImpl = (async (input: RequestInfo | URL) => {
    sent.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    return new Response('[]', { status: 200 });
  }) as typeof fetch;
  return { sent, fetchImpl };
}

const asAnon = { headers: new Headers({ apikey: ANON, Authorization: `Bearer ${ANON}` }) };
const asMember = { headers: new Headers({ apikey: ANON, Authorization: 'Bearer member.jwt.token' }) };

describe('withMemberTokenOnly', () => {
  it('holds back a signed-in member’s request that would go out with the anon key, as a failed request', async () => {
    const { sent, fetchImpl } = recorder();
    const f = withMemberTokenOnly(fetchImpl, ANON, () => true);
    await expect(
      f('http://127.0.0.1:3000/rest/v1/notifications?id=eq.1', { method: 'PATCH', ...asAnon }),
    ).rejects.toBeInstanceOf(SessionNotReadyError);
    await expect(f('http://127.0.0.1:3000/rest/v1/rpc/get_discovery_profiles', asAnon)).rejects.toThrow(
      TypeError,
    );
    await expect(
      f(new Request('http://127.0.0.1:3000/storage/v1/object/sign/profile-photos/a.png', asAnon)),
    ).rejects.toBeInstanceOf(SessionNotReadyError);
    expect(sent).toEqual([]);
  });

  it('lets the member’s own token through, and a visitor’s anon requests', async () => {
    const { sent, fetchImpl } = recorder();
    await withMemberTokenOnly(fetchImpl, ANON, () => true)('http://h/rest/v1/profiles', asMember);
    await withMemberTokenOnly(fetchImpl, ANON, () => false)('http://h/rest/v1/rpc/get_public_stats', asAnon);
    expect(sent).toEqual(['http://h/rest/v1/profiles', 'http://h/rest/v1/rpc/get_public_stats']);
  });

  it('lets the auth server’s endpoints through: renewing the session is how the token comes back', async () => {
    const { sent, fetchImpl } = recorder();
    const f = withMemberTokenOnly(fetchImpl, ANON, () => true);
    await f('http://h/auth/v1/token?grant_type=refresh_token', { method: 'POST', ...asAnon });
    await f('http://h/auth/v1/logout?scope=local', { method: 'POST', ...asAnon });
    expect(sent).toHaveLength(2);
  });

  it('asks whether a member is signed in only for a request that carries the anon key', async () => {
    const { fetchImpl } = recorder();
    let asked = 0;
    const f = withMemberTokenOnly(fetchImpl, ANON, () => {
      asked += 1;
      return false;
    });
    await f('http://h/rest/v1/profiles', asMember);
    await f('http://h/rest/v1/profiles', {});
    expect(asked).toBe(0);
    await f('http://h/rest/v1/profiles', asAnon);
    expect(asked).toBe(1);
  });
});
