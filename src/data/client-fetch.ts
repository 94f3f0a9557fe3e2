// The fetch supabase-js sends its requests with, loaded with the client library (not on the landing's first load).
import { withDeviceClockSessions } from './device-clock.ts';
import { withMemberTokenOnly } from './member-requests.ts';
import { createRequestGate, withNoRequestOffline } from './network.ts';
import { withOfflineLocalSignOut } from './offline-sign-out.ts';
import { readStoredSession } from './stored-session.ts';

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
