// Runs SQL the way PostgREST does: in a transaction, as an API role, with request.jwt.claims set.
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
  // As the server's own callers do (decision 0089): the role and claims open the transaction.
  return db.transaction(fn, {
    setup: [
      {
        text: `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`,
        params: [actor.role, JSON.stringify({ ...actor, aud: 'authenticated' })],
      },
    ],
  });
}
