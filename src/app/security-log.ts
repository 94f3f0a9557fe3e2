// Records the spec's security events: always to the console, and to security_events through the log_security_event RPC.
import { getSupabase } from '../data/supabase-client.ts';
import { allowsAnalytics, parseCookieConsent, COOKIE_CONSENT_KEY } from '../domain/cookie-consent.ts';

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

/** Fire and forget: a failed recording never disturbs the member. */
export function logSecurityEvent(event: SecurityEventName, details: Record<string, unknown> = {}): void {
  console.info(`[security] ${event}`, details);
  if (USAGE_EVENTS.has(event) && !hasAnalyticsConsent()) return;
  void getSupabase()
    .then((sb) => sb.rpc('log_security_event', { event, details }))
    .then((res) => {
      if (res.error) console.debug('[security] not recorded', event, res.error.message);
    })
    .catch(() => {
      /* offline or no backend: the console line is the record */
    });
}
