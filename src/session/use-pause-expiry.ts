// A pause whose end date has passed ends when a member's session starts on a page (a sign-in or the app's
// start); offline, when the network returns. Run by the signed-in rules (app/signed-in-rules.tsx), which load
// apart from the entry script.
import { useEffect } from 'react';
import { isOnline, onNetworkChange } from '../data/network.ts';
import { getSupabase } from '../data/supabase-client.ts';

async function reactivateExpiredPause(): Promise<void> {
  const sb = await getSupabase();
  const { error } = await sb.rpc('reactivate_expired_pause');
  if (error) console.debug('[auth] pause expiry check failed', error.message);
}

/** Clears the member's pause if its end date has passed: once each time a session of `userId` starts here. */
export function usePauseExpiryCheck(userId: string): void {
  useEffect(() => {
    if (isOnline()) {
      void reactivateExpiredPause();
      return;
    }
    const stop = onNetworkChange((online) => {
      if (!online) return;
      stop();
      void reactivateExpiredPause();
    });
    return stop;
  }, [userId]);
}
