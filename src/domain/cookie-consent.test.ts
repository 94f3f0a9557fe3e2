import { describe, expect, it } from 'vitest';
import { allowsAnalytics, makeCookieConsent, parseCookieConsent } from './cookie-consent.ts';

describe('the cookie consent record', () => {
  const now = new Date('2025-05-01T00:00:00Z');
  it('round-trips both choices', () => {
    for (const all of [true, false]) {
      const c = makeCookieConsent(all, now);
      expect(parseCookieConsent(JSON.stringify(c))).toEqual(c);
      expect(allowsAnalytics(c)).toBe(all);
    }
  });
  it('stores necessary only without analytics or marketing', () => {
    expect(makeCookieConsent(false, now)).toEqual({
      consented: true,
      necessary: true,
      analytics: false,
      marketing: false,
      date: '2025-05-01T00:00:00.000Z',
    });
  });
  it.each([null, '', 'not json', 'null', '{"consented":true}', '[]'])('treats %j as no consent', (raw) => {
    expect(parseCookieConsent(raw)).toBeUndefined();
    expect(allowsAnalytics(parseCookieConsent(raw))).toBe(false);
  });
});
