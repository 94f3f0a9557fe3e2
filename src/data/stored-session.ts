// The session this device holds, read straight from storage. A returning member's screens start from it
// before the auth client has loaded and restored it, and it stays the session while the client cannot
// confirm it: offline, an access token past its hour cannot be renewed, and supabase-js then reports no
// session (after retrying for about 25 s) although it keeps the session stored (decision 0112).
import type { Session } from '@supabase/supabase-js';
import { backendUrlNow } from './app-config.ts';
import { rememberMeStorage, storedSessionKeyFor } from './supabase-client.ts';

/** A stored value the auth client would take for a session (its own check), with the member it is for. */
export function isStoredSession(value: unknown): value is Session {
  const v = (value ?? {}) as {
    access_token?: unknown;
    refresh_token?: unknown;
    expires_at?: unknown;
    user?: { id?: unknown };
  };
  return (
    typeof v.access_token == 'string' &&
    typeof v.refresh_token == 'string' &&
    typeof v.expires_at == 'number' &&
    typeof v.user?.id == 'string'
  );
}

/** The session stored for this app's backend (local or session storage, as "Remember me" chose), if any. */
export function readStoredSession(): Session | null {
  try {
    const value: unknown = JSON.parse(
      rememberMeStorage.getItem(storedSessionKeyFor(backendUrlNow())) ?? 'null',
    );
    return isStoredSession(value) ? value : null;
  } catch {
    return null;
  }
}
