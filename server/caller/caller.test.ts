// The one place every part learns who is calling: headers, tokens and the refusals each part maps to its
// own wire error. Real keys (ES256, as the server signs them), a fake session check.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateKeys, type JwtClaims, type Keys } from '../auth/keys.ts';
import { TokenCheckUnavailableError } from '../context.ts';
import { actAsCaller, findMemberId, readBearer, resolveCaller, SET_CALLER_ROLE_SQL } from './caller.ts';

const MEMBER = '6b1f3c1e-4a4b-4c1d-9e3f-2a1b3c4d5e6f';

describe('readBearer', () => {
  it('reads Bearer tokens, and Token ones only where allowed', () => {
    expect(readBearer(undefined)).toBeUndefined();
    expect(readBearer('Bearer abc.def')).toBe('abc.def');
    expect(readBearer('bearer   abc  ')).toBe('abc');
    expect(readBearer('Token abc')).toBeNull();
    expect(readBearer('Token abc', true)).toBe('abc');
    for (const bad of ['', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b', 'Bearerabc'])
      expect(readBearer(bad, true), bad).toBeNull();
  });
});

describe('findMemberId', () => {
  it('is the sub of a member token only', () => {
    expect(findMemberId({ role: 'authenticated', sub: MEMBER })).toBe(MEMBER);
    expect(findMemberId({ role: 'authenticated', sub: 'not-a-uuid' })).toBeUndefined();
    expect(findMemberId({ role: 'authenticated' })).toBeUndefined();
    expect(findMemberId({ role: 'service_role', sub: MEMBER })).toBeUndefined();
    expect(findMemberId({ role: 'anon' })).toBeUndefined();
  });
});

describe('resolveCaller', () => {
  let keys: Keys;
  let other: Keys;
  beforeAll(async () => {
    keys = await loadOrCreateKeys(
      fs.mkdtempSync(path.join(os.tmpdir(), 'hs-caller-')),
      'http://127.0.0.1:1/auth/v1',
    );
    other = await loadOrCreateKeys(
      fs.mkdtempSync(path.join(os.tmpdir(), 'hs-caller-')),
      'http://127.0.0.1:1/auth/v1',
    );
  });
  const ctx = (check: (claims: JwtClaims) => void = () => {}) => ({
    verifyToken: async (token: string) => {
      const claims = await keys.verify(token);
      check(claims);
      return claims;
    },
  });

  it('gives the anon and service roles from their keys, and a member from their token', async () => {
    expect(await resolveCaller(ctx(), keys.anonKey)).toMatchObject({ ok: true, caller: { role: 'anon' } });
    expect(await resolveCaller(ctx(), keys.serviceRoleKey)).toMatchObject({
      ok: true,
      caller: { role: 'service_role' },
    });
    const token = await keys.sign({ role: 'authenticated', sub: MEMBER, aud: 'authenticated' }, 60);
    expect(await resolveCaller(ctx(), token)).toMatchObject({
      ok: true,
      caller: { role: 'authenticated', claims: { sub: MEMBER } },
    });
  });

  it('refuses expired, foreign, altered and malformed tokens, and a member token without a member', async () => {
    const expired = await keys.sign({ role: 'authenticated', sub: MEMBER }, -60);
    expect(await resolveCaller(ctx(), expired)).toEqual({ ok: false, refusal: 'expired' });
    const foreign = await other.sign({ role: 'service_role' }, 60);
    expect(await resolveCaller(ctx(), foreign)).toEqual({ ok: false, refusal: 'invalid' });
    const good = await keys.sign({ role: 'authenticated', sub: MEMBER }, 60);
    const altered = `${good.slice(0, -6)}AAAAAA`;
    expect(await resolveCaller(ctx(), altered)).toEqual({ ok: false, refusal: 'invalid' });
    expect(await resolveCaller(ctx(), 'not.a.jwt')).toEqual({ ok: false, refusal: 'invalid' });
    const noSub = await keys.sign({ role: 'authenticated' }, 60);
    expect(await resolveCaller(ctx(), noSub)).toEqual({ ok: false, refusal: 'invalid' });
  });

  it('tells an ended session (invalid) from one that could not be checked (unavailable)', async () => {
    const token = await keys.sign({ role: 'authenticated', sub: MEMBER, session_id: 's1' }, 60);
    const ended = ctx(() => {
      throw new Error('session ended');
    });
    expect(await resolveCaller(ended, token)).toEqual({ ok: false, refusal: 'invalid' });
    const busy = ctx(() => {
      throw new TokenCheckUnavailableError(new Error('database away'));
    });
    expect(await resolveCaller(busy, token)).toEqual({ ok: false, refusal: 'unavailable' });
  });
});

describe('actAsCaller', () => {
  it('sets the role and the claims for the transaction only, in one statement', async () => {
    const calls: [string, unknown[]][] = [];
    const tx = {
      query: async (sql: string, params: unknown[] = []) => {
        calls.push([sql, params]);
        return { rows: [], rowCount: 0 };
      },
      exec: async () => {},
    };
    await actAsCaller(tx, { role: 'authenticated', sub: MEMBER });
    expect(calls).toEqual([
      [SET_CALLER_ROLE_SQL, ['authenticated', JSON.stringify({ role: 'authenticated', sub: MEMBER })]],
    ]);
    expect(SET_CALLER_ROLE_SQL).toMatch(
      /set_config\('role', \$1, true\).*set_config\('request\.jwt\.claims', \$2, true\)/,
    );
  });
});
