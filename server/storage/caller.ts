// Who is calling storage (the Authorization bearer, else the apikey header), in storage's error shape.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { JwtClaims } from '../auth/keys.ts';
import { readBearer, resolveCaller } from '../caller/caller.ts';
import { StorageError } from './storage-error.ts';

export async function getCallerClaims(ctx: AppContext, req: FastifyRequest): Promise<JwtClaims> {
  const apikey = req.headers['apikey'];
  const bearer = readBearer(req.headers.authorization);
  const token = bearer ?? (typeof apikey === 'string' ? apikey.trim() : undefined);
  if (!token) return { role: 'anon' };
  const result = await resolveCaller(ctx, token);
  if (result.ok) return result.caller.claims;
  if (result.refusal === 'unavailable')
    throw new StorageError(503, 'ServiceUnavailable', 'The service is busy; please try again');
  throw new StorageError(401, 'Unauthorized', 'Invalid or expired token');
}
