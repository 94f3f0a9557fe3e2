// The in-process password re-check the functions host offers its handlers (delete-account): no session
// is opened, and it counts against the same per-account and per-client-address sign-in limits as a
// sign-in, with the caller's real address rather than the loopback address of a call back to /auth/v1.
import type { Queryable } from '../db/database.ts';
import { AuthHttpError } from './errors.ts';
import { verifyPassword } from './passwords.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { SecurityEventRecorder } from './security-events.ts';
import { findUserById, isUserActive } from './users.ts';

export type PasswordCheckResult = 'ok' | 'incorrect' | 'rate_limited';

/** Checks the password of the user with that id, as asked from `clientIp`. */
export type PasswordChecker = (
  userId: string,
  password: string,
  clientIp: string,
) => Promise<PasswordCheckResult>;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The checker on the sign-in limiter and security log of /auth/v1 (auth-services.ts builds all three). */
export function createPasswordChecker(deps: {
  db: Queryable;
  limiter: RateLimiter;
  recordSecurityEvent: SecurityEventRecorder;
}): PasswordChecker {
  const { db, limiter, recordSecurityEvent } = deps;
  return async (userId, password, clientIp) => {
    const user = UUID_PATTERN.test(userId) ? await findUserById(db, userId) : undefined;
    try {
      limiter.hit([`signin:ip:${clientIp}`, `signin:email:${user ? user.email.toLowerCase() : userId}`]);
    } catch (e) {
      if (e instanceof AuthHttpError && e.status === 429) return 'rate_limited';
      throw e;
    }
    const ok = await verifyPassword(user?.encrypted_password, password);
    if (!user || !ok || !isUserActive(user)) {
      await recordSecurityEvent(
        'password_check_failed',
        { ip: clientIp, reason: 'invalid_credentials' },
        user?.id,
      );
      return 'incorrect';
    }
    return 'ok';
  };
}
