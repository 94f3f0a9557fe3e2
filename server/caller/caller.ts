// Who is calling, for every part of the server: a bearer (or PowerSync "Token") credential -> a checked
// role and claims, and running SQL as that caller the way PostgREST does (role and request.jwt.claims set
// for one transaction, so row-level security decides). Each part keeps its own wire errors: this module
// answers with a reason, never with a response.
import type { ApiRole, JwtClaims } from '../auth/keys.ts';
import { TokenCheckUnavailableError, type AppContext } from '../context.ts';
import type { Database, Queryable } from '../db/database.ts';

export interface Caller {
  role: ApiRole;
  claims: JwtClaims;
}

/** Why a credential did not give a caller. */
export type CallerRefusal =
  /** No credential where one is required. */
  | 'missing'
  /** Not "Bearer <token>" (or "Token <token>" where allowed). */
  | 'malformed'
  /** Past its expiry. */
  | 'expired'
  /** Bad signature, unknown key, ended session, or claims that do not make a caller. */
  | 'invalid'
  /** The session could not be checked (the database did not answer): retry, never sign the member out. */
  | 'unavailable';

export type CallerResult = { ok: true; caller: Caller } | { ok: false; refusal: CallerRefusal };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The token of an Authorization header: `Bearer <token>`, and `Token <token>` too when `allowToken` (the
 * PowerSync client's scheme). Undefined when the header is absent; null when it is present but malformed.
 */
export function readBearer(header: string | undefined, allowToken = false): string | undefined | null {
  if (header === undefined) return undefined;
  const m = (allowToken ? /^(?:bearer|token)\s+(\S+)\s*$/i : /^bearer\s+(\S+)\s*$/i).exec(header);
  return m?.[1] ?? null;
}

/** A signed-in member's id, or undefined for the anon and service roles (and claims without a valid sub). */
export function findMemberId(claims: JwtClaims): string | undefined {
  return claims.role === 'authenticated' && typeof claims.sub === 'string' && UUID.test(claims.sub)
    ? claims.sub
    : undefined;
}

/**
 * Checks a token (an access token or an API key) through ctx.verifyToken, which also checks that its
 * session is live. A member token must name its member.
 */
export async function resolveCaller(
  ctx: Pick<AppContext, 'verifyToken'>,
  token: string,
): Promise<CallerResult> {
  let claims: JwtClaims;
  try {
    claims = await ctx.verifyToken(token);
  } catch (e) {
    if (e instanceof TokenCheckUnavailableError) return { ok: false, refusal: 'unavailable' };
    if ((e as { code?: unknown }).code === 'ERR_JWT_EXPIRED') return { ok: false, refusal: 'expired' };
    return { ok: false, refusal: 'invalid' };
  }
  if (claims.role === 'authenticated' && !findMemberId(claims)) return { ok: false, refusal: 'invalid' };
  return { ok: true, caller: { role: claims.role, claims } };
}

/** The SQL that makes a transaction the caller's (the same text every time, so it can be prepared). */
export const SET_CALLER_ROLE_SQL = `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`;

/** Switches the current transaction to the caller's role and claims; row-level security decides from here on. */
export async function actAsCaller(tx: Queryable, claims: JwtClaims): Promise<void> {
  await tx.query(SET_CALLER_ROLE_SQL, [claims.role, JSON.stringify(claims)]);
}

/**
 * Runs fn in one transaction as the caller. `read: 'one statement'`: fn runs one read, in a read-only
 * transaction whose COMMIT travels with it (decision 0090).
 */
export function withCaller<T>(
  db: Database,
  claims: JwtClaims,
  fn: (tx: Queryable) => Promise<T>,
  options: { read?: 'one statement' } = {},
): Promise<T> {
  const oneRead = options.read === 'one statement';
  // The role and claims travel with BEGIN and fn's first statement (decision 0089).
  return db.transaction(fn, {
    setup: [{ text: SET_CALLER_ROLE_SQL, params: [claims.role, JSON.stringify(claims)] }],
    ...(oneRead ? { readOnly: true, oneStatement: true } : {}),
  });
}

/** The service role's claims (scheduled jobs, the server's own work run as pg_cron would). */
export const SERVICE_CLAIMS: JwtClaims = { role: 'service_role' };
