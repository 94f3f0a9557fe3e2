// Local storage keys read before the code that writes them has loaded: the landing's entry and a returning
// member's early start decide from them whether to load the auth client and open the replica at all.
// No imports: the landing's entry script uses this and must not pull in the auth client (decision 0068).

/**
 * The key under which supabase-js keeps a member's session: sb-<project>-auth-token, where <project> comes
 * from the backend's address. `.source` where a page script needs it as a string.
 */
export const STORED_SESSION_KEY = /^sb-.+-auth-token$/;

/** Whether a storage key holds a supabase-js session. */
export function isStoredSessionKey(key: string): boolean {
  return STORED_SESSION_KEY.test(key);
}

/**
 * Which member the device's replica file belongs to (src/data/replica.tsx writes it), so a different member
 * never sees a leftover replica, and the early start opens only the signed-in member's own file.
 */
export const REPLICA_OWNER_KEY = 'heartsync.replicaOwner';
