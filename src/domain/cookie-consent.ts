// The cookie consent record kept in local storage under cookieConsent (spec §3).

export const COOKIE_CONSENT_KEY = 'cookieConsent';

export interface CookieConsent {
  consented: boolean;
  necessary: boolean;
  analytics: boolean;
  marketing: boolean;
  /** ISO timestamp of the choice. */
  date: string;
}

/** Reads a stored record; anything malformed counts as no consent, so the banner asks again. */
export function parseCookieConsent(raw: string | null): CookieConsent | undefined {
  if (raw === null) return undefined;
  try {
    const v = JSON.parse(raw) as Partial<CookieConsent> | null;
    if (!v || typeof v !== 'object') return undefined;
    const { consented, necessary, analytics, marketing, date } = v;
    if (
      typeof consented !== 'boolean' ||
      typeof necessary !== 'boolean' ||
      typeof analytics !== 'boolean' ||
      typeof marketing !== 'boolean' ||
      typeof date !== 'string'
    )
      return undefined;
    return { consented, necessary, analytics, marketing, date };
  } catch {
    return undefined;
  }
}

/** The record for "Accept all" (everything) or "Necessary only" (nothing optional). */
export function makeCookieConsent(acceptAll: boolean, now: Date): CookieConsent {
  return {
    consented: true,
    necessary: true,
    analytics: acceptAll,
    marketing: acceptAll,
    date: now.toISOString(),
  };
}

export function allowsAnalytics(consent: CookieConsent | undefined): boolean {
  return consent?.consented === true && consent.analytics;
}
