// Unit tests of the auth service's pure rules: redirects, rate-limit windows, password policy, metadata.
import { describe, expect, it } from 'vitest';
import { AuthHttpError } from './errors.ts';
import { assertPasswordAllowed } from './passwords.ts';
import { createRateLimiter } from './rate-limit.ts';
import { getSafeRedirect, withFragment } from './redirects.ts';
import { getNormalizedEmail, sanitizeUserMetadata } from './users.ts';

const PUBLIC = 'https://heart.example';

describe('getSafeRedirect', () => {
  it('keeps same-origin and relative targets', () => {
    expect(getSafeRedirect('https://heart.example/auth/callback?type=signup', PUBLIC, '/x')).toBe(
      'https://heart.example/auth/callback?type=signup',
    );
    expect(getSafeRedirect('/reset-password', PUBLIC, '/x')).toBe('https://heart.example/reset-password');
  });

  it('falls back for other origins, protocol-relative and script URLs', () => {
    for (const bad of [
      'https://evil.example/',
      '//evil.example/x',
      'javascript:alert(1)',
      'https://heart.example.evil.example/',
      'http://heart.example/',
      '',
      42,
    ])
      expect(getSafeRedirect(bad, PUBLIC, '/reset-password')).toBe('https://heart.example/reset-password');
  });

  it('replaces an existing fragment', () => {
    expect(withFragment('https://heart.example/a#old', { a: 1, b: 'x y' })).toBe(
      'https://heart.example/a#a=1&b=x+y',
    );
  });
});

describe('createRateLimiter', () => {
  it('refuses the hit after max within a window, with Retry-After, and resets after it', () => {
    let now = 1_000_000;
    const limiter = createRateLimiter({ max: 3, windowSeconds: 10, now: () => now });
    for (let i = 0; i < 3; i++) limiter.hit(['ip:a']);
    now += 4000;
    let error: unknown;
    try {
      limiter.hit(['ip:a']);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AuthHttpError);
    expect((error as AuthHttpError).status).toBe(429);
    expect((error as AuthHttpError).extra.headers?.['retry-after']).toBe('6');
    limiter.hit(['ip:b']);
    now += 6000;
    expect(() => limiter.hit(['ip:a'])).not.toThrow();
  });

  it('refuses when any one of the keys is over its limit', () => {
    const limiter = createRateLimiter({ max: 1, windowSeconds: 10, now: () => 0 });
    limiter.hit(['ip:a', 'email:x']);
    expect(() => limiter.hit(['ip:b', 'email:x'])).toThrow(AuthHttpError);
  });
});

describe('assertPasswordAllowed', () => {
  const reason = (p: string) => {
    try {
      assertPasswordAllowed(p);
      return 'ok';
    } catch (e) {
      return ((e as AuthHttpError).extra.body?.['weak_password'] as { reasons: string[] }).reasons[0];
    }
  };

  it('applies length in characters, not bytes, the common-password list and trivial patterns', () => {
    // Characters that follow no sequence, repeat or keyboard walk, so only length decides.
    const varied = (n: number) =>
      Array.from({ length: n }, (_, i) => String.fromCharCode(33 + ((i * 37) % 90))).join('');
    expect(reason('Abc-123')).toBe('length');
    expect(reason('Kq7-vR2m')).toBe('ok');
    expect(reason('Abc-1234')).toBe('ok');
    expect(reason('春眠不觉晓处闻啼')).toBe('ok');
    expect(reason(varied(128))).toBe('ok');
    expect(reason(varied(129))).toBe('length');
    expect(reason('PASSWORD123')).toBe('pwned');
    expect(reason(' iloveyou ')).toBe('pwned');
    // Trivial patterns zxcvbn finds: repeats and a keyboard walk.
    expect(reason('密码密码密码密码')).toBe('pwned');
    expect(reason('x'.repeat(128))).toBe('pwned');
    expect(reason('qwertyuiop')).toBe('pwned');
  });
});

describe('e-mail and metadata', () => {
  it('normalises addresses and refuses what is not one', () => {
    expect(getNormalizedEmail('  Ann@Example.COM ')).toBe('ann@example.com');
    for (const bad of ['', 'ann', 'ann@', '@x.y', 'a b@x.y', 'a@b', `${'a'.repeat(250)}@x.io`, null, 3])
      expect(() => getNormalizedEmail(bad)).toThrow(AuthHttpError);
  });

  it('keeps only a sanitised name', () => {
    expect(sanitizeUserMetadata({ name: ' <i>Jo</i> ', role: 'admin' })).toEqual({
      name: '&lt;i&gt;Jo&lt;/i&gt;',
    });
    expect(sanitizeUserMetadata(undefined)).toEqual({});
    expect(() => sanitizeUserMetadata({ name: 5 })).toThrow(AuthHttpError);
    expect(() => sanitizeUserMetadata([1])).toThrow(AuthHttpError);
  });
});
