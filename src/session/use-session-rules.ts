// Session rules of spec §9 while signed in: sign out after 120 min without activity, and a 60 s validity check that refreshes under 300 s.
import { useEffect, useRef } from 'react';
import { getSupabase } from '../data/supabase-client.ts';
import {
  SESSION_CHECK_INTERVAL_MS,
  decideSessionCheck,
  isIdleTimedOut,
  isSessionRefusal,
} from '../domain/session-timing.ts';
import { toastError } from '../ui/toast-store.ts';
import { logSecurityEvent } from './security-log.ts';
import { isOnline } from '../data/network.ts';

const ACTIVITY_EVENTS = ['mousedown', 'keydown', 'scroll', 'touchstart', 'pointermove'] as const;

async function endSession(title: string, description: string): Promise<void> {
  const sb = await getSupabase();
  // Local scope: the session ends here even when the server cannot be reached.
  await sb.auth.signOut({ scope: 'local' });
  toastError(title, description);
}

export function useSessionRules(active: boolean): void {
  const lastActivity = useRef(Date.now());

  useEffect(() => {
    if (!active) return;
    lastActivity.current = Date.now();
    let lastMark = 0;
    const mark = () => {
      const now = Date.now();
      // pointermove fires constantly; one timestamp per second is plenty.
      if (now - lastMark > 1000) lastActivity.current = lastMark = now;
    };
    for (const e of ACTIVITY_EVENTS) window.addEventListener(e, mark, { passive: true });

    let busy = false;
    let ended = false;
    // A check still in flight when the session ended another way (timeout, sign-out) must not add a second toast.
    async function expire() {
      if (ended) return;
      ended = true;
      await endSession('Session Expired', 'Your session has expired. Please log in again.');
    }
    async function check() {
      // The idle rule goes first and never waits for a validity check still in flight.
      const now = Date.now();
      if (!ended && isIdleTimedOut(lastActivity.current, now)) {
        ended = true;
        logSecurityEvent('session_timeout_reached', {
          idleMinutes: Math.round((now - lastActivity.current) / 60000),
        });
        await endSession('Session Timeout', 'Your session has timed out for security reasons.');
        return;
      }
      if (busy || ended) return;
      // Offline, asking for the session would try to renew an expired token, fail, and hold the failure
      // (supabase-js's cooldown) past the network's return.
      if (!isOnline()) return;
      busy = true;
      try {
        const sb = await getSupabase();
        const { data, error: sessionError } = await sb.auth.getSession();
        const decision = decideSessionCheck({
          expiresAt: data.session?.expires_at,
          nowMs: now,
          online: isOnline(),
          sessionError,
        });
        if (decision === 'skip-offline' || decision === 'skip-unreachable') return;
        if (decision === 'expired') {
          logSecurityEvent('session_validation_failed', { reason: 'no session' });
          await expire();
          return;
        }
        if (decision === 'refresh') {
          const timeUntilExpiry = (data.session?.expires_at ?? 0) - now / 1000;
          const { error } = await sb.auth.refreshSession();
          if (error && isSessionRefusal(error)) {
            logSecurityEvent('session_refresh_failed', { message: error.message });
            await expire();
          } else if (!error)
            logSecurityEvent('session_refreshed', { timeUntilExpiry: Math.round(timeUntilExpiry) });
          return;
        }
        // Valid locally: ask the server whether it still honours the session (revoked elsewhere?).
        const { error } = await sb.auth.getUser();
        if (error && isSessionRefusal(error)) {
          logSecurityEvent('session_validation_failed', { message: error.message });
          await expire();
        }
      } catch (e) {
        logSecurityEvent('session_validation_error', { message: e instanceof Error ? e.message : String(e) });
      } finally {
        busy = false;
      }
    }
    const timer = setInterval(() => void check(), SESSION_CHECK_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      for (const e of ACTIVITY_EVENTS) window.removeEventListener(e, mark);
    };
  }, [active]);
}
