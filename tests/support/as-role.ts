// Runs SQL the way PostgREST does: in a transaction, as an API role, with request.jwt.claims set.
import { withCaller } from '../../server/caller/caller.ts';
import type { Database, Queryable } from '../../server/db/database.ts';

export interface Actor {
  role: 'anon' | 'authenticated' | 'service_role';
  sub?: string;
  email?: string;
}

export const anonymous: Actor = { role: 'anon' };
export const serviceRole: Actor = { role: 'service_role' };
export const member = (id: string, email?: string): Actor => ({
  role: 'authenticated',
  sub: id,
  ...(email ? { email } : {}),
});

/** Runs fn as the actor; the transaction rolls back when fn throws, so a refused write changes nothing. */
export async function asActor<T>(db: Database, actor: Actor, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  // The server's own way into a transaction as a caller (its role and claims open it, decision 0089).
  return withCaller(db, { ...actor, aud: 'authenticated' }, fn);
}
