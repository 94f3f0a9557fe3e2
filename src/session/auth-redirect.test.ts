import { describe, expect, it } from 'vitest';
import { hasAuthRedirectParams } from './auth-redirect.ts';

describe('hasAuthRedirectParams', () => {
  it('sees the answers an auth redirect brings back, in the query or the hash', () => {
    expect(hasAuthRedirectParams({ search: '', hash: '#access_token=a&refresh_token=r&type=recovery' })).toBe(
      true,
    );
    expect(hasAuthRedirectParams({ search: '?code=abc', hash: '' })).toBe(true);
    expect(hasAuthRedirectParams({ search: '?token_hash=t&type=signup', hash: '' })).toBe(true);
    expect(
      hasAuthRedirectParams({ search: '', hash: '#error=access_denied&error_description=Expired' }),
    ).toBe(true);
  });

  it('leaves an ordinary address alone', () => {
    expect(hasAuthRedirectParams({ search: '', hash: '' })).toBe(false);
    expect(hasAuthRedirectParams({ search: '?source=pwa', hash: '' })).toBe(false);
    expect(hasAuthRedirectParams({ search: '?c=123', hash: '#main' })).toBe(false);
  });
});
