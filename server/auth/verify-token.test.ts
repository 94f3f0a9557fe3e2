// ctx.verifyToken: the signature first, then for a member's token a live session; a session check the
// database cannot answer is "unavailable" (a 503 to retry), never "ended" (a 401 that signs the member out).
import * as jose from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenCheckUnavailableError } from '../context.ts';
import { createKeys } from './keys.ts';
import { createTokenVerifier } from './verify-token.ts';

async function setUp(live: (sessionId: string, userId: string | undefined) => Promise<boolean>) {
  const { privateKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await jose.exportJWK(privateKey)), kid: 'test-kid', alg: 'ES256', use: 'sig' };
  const keys = await createKeys(jwk, 'http://127.0.0.1:9/auth/v1');
  const asked: string[] = [];
  const verify = createTokenVerifier(keys, {
    isSessionLive: (sessionId, userId) => {
      asked.push(`${userId}/${sessionId}`);
      return live(sessionId, userId);
    },
  });
  return { keys, verify, asked };
}

describe('verifyToken', () => {
  it("accepts a member's token while its session is live, and refuses it once the session ended", async () => {
    const ended = new Set<string>();
    const { keys, verify, asked } = await setUp(async (s) => !ended.has(s));
    const token = await keys.sign({ role: 'authenticated', sub: 'u1', session_id: 's1' }, 60);
    await expect(verify(token)).resolves.toMatchObject({ sub: 'u1', session_id: 's1' });
    ended.add('s1');
    await expect(verify(token)).rejects.toThrow('session ended');
    expect(asked).toEqual(['u1/s1', 'u1/s1']);
  });

  it('tells an unanswered session check apart from an ended session', async () => {
    const { keys, verify } = await setUp(() => Promise.reject(new Error('connection terminated')));
    const token = await keys.sign({ role: 'authenticated', sub: 'u1', session_id: 's1' }, 60);
    await expect(verify(token)).rejects.toBeInstanceOf(TokenCheckUnavailableError);
  });

  it('checks the signature before any session, and API keys have none to check', async () => {
    const { keys, verify, asked } = await setUp(async () => true);
    await expect(verify(keys.anonKey)).resolves.toMatchObject({ role: 'anon' });
    await expect(verify(keys.serviceRoleKey)).resolves.toMatchObject({ role: 'service_role' });
    const other = await setUp(async () => true);
    const forged = await other.keys.sign({ role: 'authenticated', sub: 'u1', session_id: 's1' }, 60);
    await expect(verify(forged)).rejects.toThrow();
    await expect(verify('not-a-token')).rejects.toThrow();
    expect(asked).toEqual([]);
  });
});
