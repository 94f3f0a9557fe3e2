// Session timing decisions of spec §9: the 120-minute inactivity timeout and the 60 s validity check.

export const SESSION_TIMEOUT_MS = 120 * 60 * 1000;
export const SESSION_CHECK_INTERVAL_MS = 60 * 1000;
/** Below this many seconds before expiry the check refreshes the session. */
export const SESSION_REFRESH_MARGIN_S = 300;

export function isIdleTimedOut(lastActivityMs: number, nowMs: number): boolean {
  return nowMs - lastActivityMs >= SESSION_TIMEOUT_MS;
}

export type SessionCheckDecision = 'valid' | 'refresh' | 'skip-offline' | 'skip-unreachable' | 'expired';

export interface SessionCheckInput {
  /** expires_at of the session in seconds since the epoch; undefined when unknown. */
  expiresAt: number | undefined;
  nowMs: number;
  online: boolean;
  /** The error reading the session gave (an expired token's renewal failed), if any. */
  sessionError?: { status?: number; name?: string } | null;
}

/**
 * What the periodic check does. Offline is never a failure: the check waits for the network. Nor is a
 * renewal that could not reach the server: no session then is no verdict on it (decision 0112).
 * A session already past expiry is still refreshed (the refresh token may be valid); only a failed
 * refresh or a refused validation ends it, which the caller decides from the server's answer.
 */
export function decideSessionCheck({
  expiresAt,
  nowMs,
  online,
  sessionError,
}: SessionCheckInput): SessionCheckDecision {
  if (!online) return 'skip-offline';
  if (sessionError && !isSessionRefusal(sessionError)) return 'skip-unreachable';
  if (expiresAt === undefined) return 'expired';
  const secondsLeft = expiresAt - nowMs / 1000;
  return secondsLeft < SESSION_REFRESH_MARGIN_S ? 'refresh' : 'valid';
}

/**
 * Whether an error from a session call means the session is gone (a refusal) rather than a
 * network problem; network failures are not failed checks.
 */
export function isSessionRefusal(error: { status?: number; name?: string } | null | undefined): boolean {
  if (!error) return false;
  if (error.name === 'AuthRetryableFetchError') return false;
  const status = error.status ?? 0;
  return status >= 400 && status < 500;
}
