// Startup security checks of spec §8 ('Initializing security...'): response headers and inline code
// (security-checks.ts, loaded once the page runs), page events. Nothing is blocked.
import { useEffect, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { allowsAnalytics } from '../domain/cookie-consent.ts';
import { readCookieConsent } from './cookie-choice.ts';
import { FullScreenLoading } from '../ui/loading-screen.tsx';
import { flushSecurityEvents, logSecurityEvent, SECURITY_LOG_PATH } from '../session/security-log.ts';
import { isOnline } from '../data/network.ts';

/** The startup checks hold the first paint at most this long: a slow mobile network must not hold the app. */
const STARTUP_CHECK_WAIT_MS = 1500;

export function SecurityWrapper({
  children,
  prerendered = false,
}: {
  children: ReactNode;
  prerendered?: boolean;
}) {
  // On the pre-rendered landing the page is already on screen: it stays while the checks run (they block nothing).
  // Offline (a reload with the network gone) the page shows at once: the checks cannot reach the server.
  const [ready, setReady] = useState(() => prerendered || !isOnline());
  const location = useLocation();

  useEffect(() => {
    let done = false;
    const wait = setTimeout(() => setReady(true), STARTUP_CHECK_WAIT_MS);
    import('./security-checks.ts')
      .then((m) => m.runStartupChecks())
      .catch((e: unknown) =>
        logSecurityEvent('security_initialization_failed', {
          message: e instanceof Error ? e.message : String(e),
        }),
      )
      .finally(() => {
        if (done) return;
        logSecurityEvent('enhanced_security_provider_initialized');
        setReady(true);
      });
    const onVisibility = () => logSecurityEvent(document.hidden ? 'page_hidden' : 'page_visible');
    const onUnload = () => {
      logSecurityEvent('page_unload');
      flushSecurityEvents();
    };
    const onCsp = (e: SecurityPolicyViolationEvent) => {
      // The logger's own request refused: recording that would send again into the same refusal.
      if (e.blockedURI.includes(SECURITY_LOG_PATH)) return;
      logSecurityEvent('csp_violations_detected', { directive: e.effectiveDirective, blocked: e.blockedURI });
    };
    // Recorded, never blocked: blocking protects nothing and hurts accessibility (DESIGN.md).
    const lastLogged = new Map<string, number>();
    const throttled = (
      name: 'suspicious_activity' | 'devtools_access_attempt' | 'context_menu_attempt',
      details = {},
    ) => {
      const now = Date.now();
      if (now - (lastLogged.get(name) ?? 0) < 10_000) return;
      lastLogged.set(name, now);
      logSecurityEvent(name, details);
    };
    const onContextMenu = () => throttled('context_menu_attempt');
    const onCopy = () => throttled('suspicious_activity', { type: 'copy' });
    const onKeyDown = (e: KeyboardEvent) => {
      const k = e.key.toUpperCase();
      if (k === 'F12' || (e.ctrlKey && e.shiftKey && ['I', 'J', 'C'].includes(k)))
        throttled('devtools_access_attempt', { key: e.key });
    };
    document.addEventListener('contextmenu', onContextMenu);
    document.addEventListener('copy', onCopy);
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onUnload);
    document.addEventListener('securitypolicyviolation', onCsp);
    return () => {
      done = true;
      clearTimeout(wait);
      document.removeEventListener('contextmenu', onContextMenu);
      document.removeEventListener('copy', onCopy);
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', onUnload);
      document.removeEventListener('securitypolicyviolation', onCsp);
    };
  }, []);

  // page_visit only with analytics consent (nothing optional before consent).
  useEffect(() => {
    if (!allowsAnalytics(readCookieConsent())) return;
    logSecurityEvent('page_visit', {
      path: location.pathname,
      referrer: document.referrer,
      userAgent: navigator.userAgent,
      timestamp: new Date().toISOString(),
    });
  }, [location.pathname]);

  if (!ready) return <FullScreenLoading text="Initializing security..." />;
  return children;
}
