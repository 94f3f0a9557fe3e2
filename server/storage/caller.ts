// Who is calling (from the Authorization bearer or apikey) and running SQL as them, like PostgREST does.
import type { FastifyRequest } from 'fastify';
import { TokenCheckUnavailableError, type AppContext } from '../context.ts';
import type { JwtClaims } from '../auth/keys.ts';
import type { Queryable } from '../db/database.ts';
import { StorageError } from './storage-error.ts';

export async function getCallerClaims(ctx: AppContext, req: FastifyRequest): Promise<JwtClaims> {
  const auth = req.headers.authorization;
  const apikey = req.headers['apikey'];
  let token: string | undefined;
  if (typeof auth === 'string' && /^bearer /i.test(auth)) token = auth.slice(7).trim();
  else if (typeof apikey === 'string') token = apikey.trim();
  if (!token) return { role: 'anon' };
  let claims: JwtClaims;
  try {
    claims = await ctx.verifyToken(token);
  } catch (e) {
    if (e instanceof TokenCheckUnavailableError)
      throw new StorageError(503, 'ServiceUnavailable', 'The service is busy; please try again');
    throw new StorageError(401, 'Unauthorized', 'Invalid or expired token');
  }
  if (claims.role === 'authenticated' && !claims.sub)
    throw new StorageError(401, 'Unauthorized', 'Invalid token: no subject');
  return claims;
}

/** Switches the current transaction to the caller's role and claims; RLS decides from here on. */
export async function actAsCaller(tx: Queryable, claims: JwtClaims): Promise<void> {
  await tx.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [
    claims.role,
    JSON.stringify(claims),
  ]);
}
