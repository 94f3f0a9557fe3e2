// The services of auth other parts use too, built once per server by buildApp and handed to every part on
// the context: sessions, the sign-in limiter, the security log and the in-process password re-check.
// (The session-aware token check is ctx.verifyToken, verify-token.ts.)
import type { AppContext } from '../context.ts';
import { createPasswordChecker, type PasswordChecker } from './password-check.ts';
import { createRateLimiter, type RateLimiter } from './rate-limit.ts';
import { createSecurityEventRecorder, type SecurityEventRecorder } from './security-events.ts';
import { SessionStore } from './sessions.ts';

export interface AuthServices {
  sessions: SessionStore;
  /** Sign-ins, sign-ups, recovery mails and password re-checks count here (per client address and account). */
  limiter: RateLimiter;
  recordSecurityEvent: SecurityEventRecorder;
  /** Functions re-check a password in process (delete-account): counted like a sign-in, no session opened. */
  checkPassword: PasswordChecker;
}

export function createAuthServices(
  ctx: Pick<AppContext, 'config' | 'db' | 'keys' | 'events' | 'bus' | 'log'>,
): AuthServices {
  const sessions = new SessionStore(ctx);
  const limiter = createRateLimiter({
    max: ctx.config.AUTH_RATE_LIMIT_MAX,
    windowSeconds: ctx.config.AUTH_RATE_LIMIT_WINDOW_SECONDS,
    bus: ctx.bus,
    name: 'auth',
  });
  const recordSecurityEvent = createSecurityEventRecorder(ctx);
  const checkPassword = createPasswordChecker({ db: ctx.db, limiter, recordSecurityEvent });
  return { sessions, limiter, recordSecurityEvent, checkPassword };
}
