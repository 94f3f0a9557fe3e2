// Records the spec's security events: always to the console, and to security_events through the
// log_security_events RPC, batched by src/domain/security-event-queue.ts so the logger never feeds on itself.
import type { Json } from '../data/database.types.ts';
import { getSupabase } from '../data/supabase-client.ts';
import { allowsAnalytics, parseCookieConsent, COOKIE_CONSENT_KEY } from '../domain/cookie-consent.ts';
import { SecurityEventQueue } from '../domain/security-event-queue.ts';
import { isOnline } from '../data/network.ts';

export type SecurityEventName =
  | 'session_validation_failed'
  | 'session_refresh_failed'
  | 'session_refreshed'
  | 'session_validation_error'
  | 'enhanced_security_provider_initialized'
  | 'csp_violations_detected'
  | 'security_header_warnings'
  | 'security_initialization_failed'
  | 'session_timeout_reached'
  | 'page_hidden'
  | 'page_visible'
  | 'page_unload'
  | 'page_visit'
  | 'suspicious_activity'
  | 'devtools_access_attempt'
  | 'context_menu_attempt';

// Events that describe browsing rather than a threat are usage data: stored only with analytics consent.
const USAGE_EVENTS = new Set<SecurityEventName>([
  'page_visit',
  'page_hidden',
  'page_visible',
  'page_unload',
  'enhanced_security_provider_initialized',
  'suspicious_activity',
  'devtools_access_attempt',
  'context_menu_attempt',
]);

function hasAnalyticsConsent(): boolean {
  try {
    return allowsAnalytics(parseCookieConsent(localStorage.getItem(COOKIE_CONSENT_KEY)));
  } catch {
    return false;
  }
}

let queue: SecurityEventQueue | undefined;

/** The page's queue: batched, deduplicated, capped, quiet offline and after a failed send (issue 12). */
function getQueue(): SecurityEventQueue {
  queue ??= new SecurityEventQueue({
    now: () => Date.now(),
    isOnline: () => isOnline(),
    schedule: (fn, ms) => void setTimeout(fn, ms),
    async send(events) {
      const sb = await getSupabase();
      // Each event's details are JSON by construction (the queue's callers pass plain values).
      const { error } = await sb.rpc('log_security_events', { events: events as unknown as Json });
      if (error) throw new Error(error.message);
    },
  });
  return queue;
}

/** The RPC the queue sends to: a CSP refusal of it must never become an event of its own. */
export const SECURITY_LOG_PATH = '/rest/v1/rpc/log_security_events';

/** Fire and forget: a failed recording never disturbs the member, and never records itself. */
export function logSecurityEvent(event: SecurityEventName, details: Record<string, unknown> = {}): void {
  console.info(`[security] ${event}`, details);
  if (USAGE_EVENTS.has(event) && !hasAnalyticsConsent()) return;
  getQueue().add({ event, details });
}

/** Sends what waits now (the page is being hidden or closed). */
export function flushSecurityEvents(): void {
  void queue?.flush();
}
