// The key under which supabase-js keeps a member's session in the browser's storage: sb-<project>-auth-token,
// where <project> comes from the backend's address. Read by code that must know whether a session is stored
// before the auth client loads (the landing, a returning member's early start) or when another tab changes it.
// No imports: the landing's entry script uses it and must not pull in the auth client (decision 0068).

/** The pattern of supabase-js's session key; `.source` where a page script needs it as a string. */
export const STORED_SESSION_KEY = /^sb-.+-auth-token$/;

/** Whether a storage key holds a supabase-js session. */
export function isStoredSessionKey(key: string): boolean {
  return STORED_SESSION_KEY.test(key);
}
