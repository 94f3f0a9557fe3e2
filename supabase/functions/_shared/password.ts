// Re-checks the signed-in member's password (delete-account). In the self-contained server the
// functions host checks it in process: no session is opened and the attempt counts against the
// member's own sign-in limits and their real address. On Supabase there is no such host: a sign-in
// with a separate anonymous client checks it, and its session is closed at once.
import type { User } from '@supabase/supabase-js';
import { createAnonClient } from './supabase.ts';

export type PasswordCheck = 'ok' | 'incorrect' | 'rate_limited';

interface HostAuth {
  checkPassword(userId: string, password: string): Promise<PasswordCheck>;
}

// Set by server/functions/functions-part.ts for the duration of each request it hands a function.
const PROVIDER = Symbol.for('heartsync.functions.auth');

function findHostAuth(): HostAuth | undefined {
  const provider = (globalThis as Record<symbol, unknown>)[PROVIDER] as
    (() => HostAuth | undefined) | undefined;
  return provider?.();
}

export async function checkPassword(user: User, password: string): Promise<PasswordCheck> {
  const host = findHostAuth();
  if (host) return host.checkPassword(user.id, password);
  if (!user.email) return 'incorrect';
  const verifier = createAnonClient();
  const signIn = await verifier.auth.signInWithPassword({ email: user.email, password });
  if (signIn.error?.status === 429) return 'rate_limited';
  if (signIn.error || signIn.data.user?.id !== user.id) return 'incorrect';
  await verifier.auth.signOut({ scope: 'local' });
  return 'ok';
}
