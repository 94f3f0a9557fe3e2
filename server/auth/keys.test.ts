// The signing key's tokens: standard ES256 JWTs any JOSE library verifies, and a verification cache
// that never outlives a token's expiry or accepts a token it has not verified.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as jose from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKeys, loadOrCreateKeys } from './keys.ts';

const ISSUER = 'http://127.0.0.1:9/auth/v1';

async function makeKeys() {
  const { privateKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await jose.exportJWK(privateKey)), kid: 'test-kid', alg: 'ES256', use: 'sig' };
  return createKeys(jwk, ISSUER);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('keys', () => {
  it('signs ES256 tokens that jose verifies against the published JWKS', async () => {
    const keys = await makeKeys();
    const token = await keys.sign({ role: 'authenticated', sub: 'u1', session_id: 's1' }, 60);
    const jwks = jose.createLocalJWKSet(keys.jwks);
    const { payload, protectedHeader } = await jose.jwtVerify(token, jwks, { issuer: ISSUER });
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: 'test-kid', typ: 'JWT' });
    expect(payload).toMatchObject({ role: 'authenticated', sub: 'u1', session_id: 's1', iss: ISSUER });
    expect(payload.exp! - payload.iat!).toBe(60);
    for (const key of [keys.anonKey, keys.serviceRoleKey])
      expect((await jose.jwtVerify(key, jwks, { issuer: ISSUER })).payload.iat).toBe(1_700_000_000);
  });

  it('refuses a token once it expires, even after verifying it before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const keys = await makeKeys();
    const token = await keys.sign({ role: 'authenticated', sub: 'u1' }, 30);
    await expect(keys.verify(token)).resolves.toMatchObject({ sub: 'u1' });
    await expect(keys.verify(token)).resolves.toMatchObject({ sub: 'u1' });
    vi.setSystemTime(new Date('2030-01-01T00:00:31Z'));
    await expect(keys.verify(token)).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
  });

  it('refuses tampered, foreign-key and wrong-issuer tokens, whatever was verified before', async () => {
    const keys = await makeKeys();
    const other = await makeKeys();
    const token = await keys.sign({ role: 'anon' }, 60);
    await keys.verify(token);
    const [h, p, s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ role: 'service_role', iss: ISSUER, exp: 4e9 })).toString('base64url')}.${s}`;
    await expect(keys.verify(forged)).rejects.toThrow();
    await expect(keys.verify(`${h}.${p}.${s!.slice(0, -4)}AAAA`)).rejects.toThrow();
    await expect(keys.verify(await other.sign({ role: 'anon' }, 60))).rejects.toThrow();
    const elsewhere = await createKeys(
      { ...(await jose.exportJWK((await jose.generateKeyPair('ES256', { extractable: true })).privateKey)) },
      'http://elsewhere/auth/v1',
    );
    await expect(keys.verify(await elsewhere.sign({ role: 'anon' }, 60))).rejects.toThrow();
  });

  it('refuses a role outside the API roles', async () => {
    const keys = await makeKeys();
    const token = await keys.sign({ role: 'postgres' } as never, 60);
    await expect(keys.verify(token)).rejects.toThrow('invalid role claim');
    await expect(keys.verify(token)).rejects.toThrow('invalid role claim');
  });

  it('keeps the first API keys across restarts', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-keys-'));
    try {
      const first = await loadOrCreateKeys(dir, ISSUER);
      const second = await loadOrCreateKeys(dir, ISSUER);
      expect(second.anonKey).toBe(first.anonKey);
      expect((await second.verify(first.serviceRoleKey)).role).toBe('service_role');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
