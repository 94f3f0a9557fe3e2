// The supabase-js client of the app as supabase-client.ts hands it out: the fetch it sends its requests with, and
// its renewal at the network's return. Loaded with the client library (not on the landing's first load).
import type * as SupabaseJs from '@supabase/supabase-js';
import type { AppConfig } from './app-config.ts';
import type { Database } from './database.types.ts';
import { rememberMeStorage, type HeartSyncClient } from './supabase-client.ts';
import { withDeviceClockSessions } from './device-clock.ts';
import { withMemberTokenOnly } from './member-requests.ts';
import {
  createRequestGate,
  onNetworkChange,
  withNoRequestOffline,
  type NetworkEnvironment,
} from './network.ts';
import { withOfflineLocalSignOut } from './offline-sign-out.ts';
import { readStoredSession } from './stored-session.ts';

/** The app's client: sessions where "Remember me" put them, one refresher, the fetch below. */
export function createHeartSyncClient(
  { createClient, isAuthRetryableFetchError }: typeof SupabaseJs,
  config: Pick<AppConfig, 'supabaseUrl' | 'anonKey'>,
): HeartSyncClient {
  const client = createClient<Database>(config.supabaseUrl, config.anonKey, {
    auth: {
      storage: rememberMeStorage,
      persistSession: true,
      // The session manager refreshes on its own 60 s check (spec §9), so there is one refresher.
      autoRefreshToken: false,
      detectSessionInUrl: true,
      flowType: 'implicit',
    },
    global: { fetch: createClientFetch(config.anonKey) },
  });
  renewAtNetworkReturn(client.auth, isAuthRetryableFetchError);
  return client;
}

/**
 * Session expiry judged on this device's clock (a phone set ahead would otherwise refresh forever), signing
 * out on this device works offline, no request goes out without a network (network.ts), and none of a signed-in
 * member's goes out as a visitor's (member-requests.ts).
 */
export function createClientFetch(anonKey: string): typeof fetch {
  return withOfflineLocalSignOut(
    withNoRequestOffline(
      withMemberTokenOnly(
        withDeviceClockSessions((input, init) => fetch(input, init)),
        anonKey,
        () => readStoredSession() !== null,
      ),
      createRequestGate(),
    ),
  );
}

/** The part of supabase-js's auth client this reads: its session, and a private field (below). */
interface AuthClientLike {
  getSession(): Promise<unknown>;
}

/**
 * supabase-js holds a failed renewal for a minute before it tries the same refresh token again (its
 * `REFRESH_FAILURE_COOLDOWN_MS`, in the private `lastRefreshFailure`), and until then every read of an expired
 * session gets that failure. A renewal that failed for want of a network says nothing once the network is back:
 * then it is forgotten and the session read again, which renews an expired token at once, and the member's
 * queued writes go up now, not a minute later. A refusal stays held. `isNetworkFailure` is supabase-js's
 * `isAuthRetryableFetchError`. Returns the stop. (client-fetch.test.ts checks the private field against the
 * installed supabase-js.)
 */
export function renewAtNetworkReturn(
  auth: AuthClientLike,
  isNetworkFailure: (error: unknown) => boolean,
  env?: NetworkEnvironment,
): () => void {
  return onNetworkChange((online) => {
    if (!online) return;
    const held = auth as { lastRefreshFailure?: { result?: { error?: unknown } } | null };
    if (!isNetworkFailure(held.lastRefreshFailure?.result?.error)) return;
    held.lastRefreshFailure = null;
    auth.getSession().catch(() => undefined);
  }, env);
}
