// The in-process password re-check the functions host offers its handlers (delete-account): no session
// is opened, and it counts against the same per-account and per-client-address sign-in limits as a
// sign-in, with the caller's real address rather than the loopback address of a call back to /auth/v1.
import type { AppContext } from '../context.ts';

export type PasswordCheckResult = 'ok' | 'incorrect' | 'rate_limited';

/** Checks the password of the user with that id, as asked from `clientIp`. */
export type PasswordChecker = (
  userId: string,
  password: string,
  clientIp: string,
) => Promise<PasswordCheckResult>;

const checkers = new WeakMap<AppContext, PasswordChecker>();

/** Called by the auth part, which holds the limits. */
export function setPasswordChecker(ctx: AppContext, checker: PasswordChecker): void {
  checkers.set(ctx, checker);
}

/** The checker of this server, when its auth part is registered. */
export function findPasswordChecker(ctx: AppContext): PasswordChecker | undefined {
  return checkers.get(ctx);
}
