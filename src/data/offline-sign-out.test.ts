// Signing out on this device with no network: real supabase-js signed in to the real server, then every
// request fails as it does offline. A local sign-out leaves the device signed out (SIGNED_OUT); a global
// one still reports the error, and plain fetch shows the defect this fixes (the session stays).
import crypto from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpConfirmed } from '../../tests/server/auth-support.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { withOfflineLocalSignOut } from './offline-sign-out.ts';

const PASSWORD = 'Str0ng!Passw0rd';

describe('signing out offline', () => {
  let t: TestServer;
  const email = `offline-out-${crypto.randomUUID().slice(0, 8)}@example.test`;

  beforeAll(async () => {
    t = await startTestServer('pglite');
    await signUpConfirmed(t, email, PASSWORD, 'Offline');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  /** A client signed in while online, whose network then goes away; and the auth events it emitted. */
  async function signedInThenOffline(wrap: boolean) {
    let online = true;
    const network: typeof fetch = (input, init) =>
      online ? fetch(input, init) : Promise.reject(new TypeError('Failed to fetch'));
    const client: SupabaseClient = createClient(t.url, t.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
      global: { fetch: wrap ? withOfflineLocalSignOut(network) : network },
    });
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => events.push(event));
    const { error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    online = false;
    return { client, events };
  }

  it('with plain fetch the session stays and supabase-js reports the network error', async () => {
    const { client } = await signedInThenOffline(false);
    const { error } = await client.auth.signOut({ scope: 'local' });
    expect(error?.name).toBe('AuthRetryableFetchError');
    expect((await client.auth.getSession()).data.session).not.toBeNull();
  });

  it('a local sign-out leaves this device signed out', async () => {
    const { client, events } = await signedInThenOffline(true);
    const { error } = await client.auth.signOut({ scope: 'local' });
    expect(error).toBeNull();
    expect((await client.auth.getSession()).data.session).toBeNull();
    expect(events).toContain('SIGNED_OUT');
  });

  it('"Log out of all devices" still needs the network and says so', async () => {
    const { client } = await signedInThenOffline(true);
    const { error } = await client.auth.signOut({ scope: 'global' });
    expect(error?.name).toBe('AuthRetryableFetchError');
    expect((await client.auth.getSession()).data.session).not.toBeNull();
  });

  it('online, the server ends the session as before', async () => {
    let loggedOut = 0;
    const client = createClient(t.url, t.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
      global: {
        fetch: withOfflineLocalSignOut(async (input, init) => {
          const res = await fetch(input, init);
          if (String(input).includes('/logout')) loggedOut = res.status;
          return res;
        }),
      },
    });
    const { data } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    const token = data.session!.access_token;
    expect((await client.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(loggedOut).toBe(204);
    const after = await fetch(`${t.url}/auth/v1/user`, {
      headers: { apikey: t.anonKey, authorization: `Bearer ${token}` },
    });
    expect(after.status).toBe(403);
  });
});
