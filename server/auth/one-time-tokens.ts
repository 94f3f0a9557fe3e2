// Mailed-link tokens (sign-up confirmation, recovery): issued with a lifetime, consumed exactly once.
import crypto from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { createOpaqueToken, hashToken } from './tokens.ts';

export type OneTimeTokenType = 'signup' | 'recovery';

/** Issues a token and returns it in clear (for the mail); only its hash is stored. */
export async function issueOneTimeToken(
  db: Queryable,
  input: {
    userId: string;
    type: OneTimeTokenType;
    ttlSeconds: number;
    passwordHash?: string;
    /** Hash of the sign-up binding cookie of the browser that asked for this link. */
    bindingHash?: string;
  },
): Promise<string> {
  const token = createOpaqueToken();
  // Expired rows are never usable; clearing them here keeps the table small without a job.
  await db.query(`delete from auth.one_time_tokens where expires_at < now() - interval '1 day'`);
  await db.query(
    `insert into auth.one_time_tokens (id, user_id, token_type, token_hash, password_hash, expires_at, binding_hash)
     values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), $7)`,
    [
      crypto.randomUUID(),
      input.userId,
      input.type,
      hashToken(token),
      input.passwordHash ?? null,
      input.ttlSeconds,
      input.bindingHash ?? null,
    ],
  );
  return token;
}

/**
 * Consumes a token: it is deleted whether or not it is still valid, so a link never works twice.
 * Returns undefined when unknown, of another type or expired.
 */
export async function consumeOneTimeToken(
  db: Queryable,
  token: string,
  type: OneTimeTokenType,
): Promise<{ userId: string; passwordHash: string | null; bindingHash: string | null } | undefined> {
  const r = await db.query<{
    user_id: string;
    password_hash: string | null;
    binding_hash: string | null;
    live: boolean;
  }>(
    `delete from auth.one_time_tokens where token_hash = $1 and token_type = $2
     returning user_id, password_hash, binding_hash, expires_at > now() as live`,
    [hashToken(token), type],
  );
  const row = r.rows[0];
  if (!row || !row.live) return undefined;
  return { userId: row.user_id, passwordHash: row.password_hash, bindingHash: row.binding_hash };
}
