// The visitor's stored cookie choice, read without React: the banner, the security wrapper and the landing's
// own entry (landing-start.ts, before the first paint) ask it.
import { COOKIE_CONSENT_KEY, parseCookieConsent, type CookieConsent } from '../domain/cookie-consent.ts';

export function readCookieConsent(): CookieConsent | undefined {
  try {
    return parseCookieConsent(localStorage.getItem(COOKIE_CONSENT_KEY));
  } catch {
    return undefined;
  }
}
