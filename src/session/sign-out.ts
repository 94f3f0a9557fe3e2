// Which sign-outs the member asked for (decision 0114). One they asked for (Sign Out, "Log out of all devices",
// the end of a password reset) clears everything of theirs on this device. One they did not ask for (the
// server refused the session, the idle rule, an expired session) keeps what they wrote and the server has not
// got, for them alone, until they sign in here again. The mark is in local storage, not memory: a sign-out in
// one tab reaches the others as supabase-js's SIGNED_OUT, and they must treat it the same way.
import type { AuthError } from '@supabase/supabase-js';
import { useEffect } from 'react';
import { getSupabase } from '../data/supabase-client.ts';
import { holdAllUnsentTexts } from '../data/held-unsent-text.ts';
import { setSignOutKeeper } from './auth-context.tsx';

const ASKED_KEY = 'heartsync.signOutAsked';

/** Signs out because the member asked to: on this device only ('local') or on every device ('global'). */
export async function signOutAsked(scope: 'local' | 'global'): Promise<{ error: AuthError | null }> {
  const sb = await getSupabase();
  setAsked(true);
  const { error } = await sb.auth.signOut({ scope });
  // Still signed in: a later sign-out nobody asked for must not be taken for this one.
  if (error) setAsked(false);
  return { error };
}

/**
 * While `userId` is signed in: a sign-out they did not ask for sets their unsent texts aside for them, and
 * keeps their replica's upload queue (the replica's sign-out cleanup is told whose).
 */
export function useSignOutKeeper(userId: string): void {
  useEffect(() => {
    // A session is open: any sign-out asked for before it is over.
    setAsked(false);
    setSignOutKeeper(() => {
      if (wasSignOutAsked()) return null;
      holdAllUnsentTexts(userId);
      return userId;
    });
    return () => setSignOutKeeper(undefined);
  }, [userId]);
}

function wasSignOutAsked(): boolean {
  try {
    return localStorage.getItem(ASKED_KEY) !== null;
  } catch {
    // No storage: nothing could be kept for later either.
    return true;
  }
}

function setAsked(asked: boolean): void {
  try {
    if (asked) localStorage.setItem(ASKED_KEY, String(Date.now()));
    else localStorage.removeItem(ASKED_KEY);
  } catch {
    /* storage unavailable: wasSignOutAsked answers true */
  }
}
