// The fetch supabase-js sends its requests with, loaded with the client library (not on the landing's first load).
import { withDeviceClockSessions } from './device-clock.ts';
import { createRequestGate, withNoRequestOffline } from './network.ts';
import { withOfflineLocalSignOut } from './offline-sign-out.ts';

/**
 * Session expiry judged on this device's clock (a phone set ahead would otherwise refresh forever), signing
 * out on this device works offline, and no request goes out without a network (network.ts).
 */
export function createClientFetch(): typeof fetch {
  return withOfflineLocalSignOut(
    withNoRequestOffline(
      withDeviceClockSessions((input, init) => fetch(input, init)),
      createRequestGate(),
    ),
  );
}
