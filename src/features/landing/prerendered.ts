// Whether this page load may adopt the landing pre-rendered at build time (decision 0023), or must render afresh.
import { isStoredSessionKey } from '../../data/storage-keys.ts';
import { hasAuthRedirectParams } from '../../session/auth-redirect.ts';

/** The attribute vite.config.ts puts on #root in landing.html. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/**
 * Dispatched on the document when the landing page has been adopted, so that the taps the landing's entry held
 * before the app arrived (app/deferred-app.ts, holdEarlyTaps) reach their buttons.
 */
export const LANDING_ADOPTED_EVENT = 'heartsync:landing-adopted';

/**
 * Called from the landing page's first effect. The page sits in the routes' Suspense boundary, the last part
 * of the pre-rendered markup React adopts (the root commits before it). Announced from the root's commit, a
 * held tap on the top navigation's Menu button was given to it too early and did nothing (seen in
 * tests/e2e/landing-prerender.spec.ts), while the cookie banner's, outside that boundary, was answered.
 */
export function announceLandingAdopted(doc: Document): void {
  doc.dispatchEvent(new Event(LANDING_ADOPTED_EVENT));
}

function storageKeys(kind: 'local' | 'session'): string[] {
  try {
    const storage = kind === 'local' ? window.localStorage : window.sessionStorage;
    return Array.from({ length: storage.length }, (_, i) => storage.key(i) ?? '');
  } catch {
    return [];
  }
}

/** True when supabase-js has a session stored in either storage (its key is sb-<host>-auth-token). */
export function hasStoredSession(): boolean {
  return [...storageKeys('local'), ...storageKeys('session')].some(isStoredSessionKey);
}

/**
 * The pre-rendered landing shows a visitor at /. It can be adopted (hydrated) only when the browser's first
 * render would be that very page: still at /, no stored session, no auth redirect to finish.
 */
export function canAdoptPrerenderedLanding(root: HTMLElement, location: Location): boolean {
  return (
    root.getAttribute(PRERENDERED_ATTRIBUTE) === 'landing' &&
    location.pathname === '/' &&
    !hasStoredSession() &&
    !hasAuthRedirectParams(location)
  );
}
