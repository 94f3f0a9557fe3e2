// The renewal at the network's return: real supabase-js against the real server. A renewal that failed for want
// of a network is held by supabase-js for a minute; at the network's return it is tried again at once. A
// refusal stays held. The first case also pins supabase-js's private field the glue clears.
import crypto from 'node:crypto';
import { createClient, isAuthRetryableFetchError, type SupabaseClient } from '@supabase/supabase-js';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signUpConfirmed } from '../../tests/server/auth-support.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { renewAtNetworkReturn } from './client-fetch.ts';
import { MemoryStorage } from './memory-storage.test-support.ts';

const PASSWORD = 'Str0ng!Passw0rd';

describe('renewing a session when the network returns', () => {
  let t: TestServer;
  const email = `renew-${crypto.randomUUID().slice(0, 8)}@example.test`;

  beforeAll(async () => {
    t = await startTestServer('pglite');
    await signUpConfirmed(t, email, PASSWORD, 'Renew');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  /** A device signed in while online; its network switch, its renewal requests, and its network as the glue sees it. */
  async function signedInDevice() {
    const device = { online: true, renewals: 0 };
    const storage = new MemoryStorage();
    const client: SupabaseClient = createClient(t.url, t.anonKey, {
      auth: { storage, persistSession: true, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
      global: {
        fetch: (input, init) => {
          if (!device.online) return Promise.reject(new TypeError('Failed to fetch'));
          if (String(input).includes('grant_type=refresh_token')) device.renewals++;
          return fetch(input, init);
        },
      },
    });
    const { data, error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    const target = new EventTarget();
    const env = { isOnline: () => device.online, target };
    /** The device's access token has expired (an hour went by). */
    const expire = () => {
      const key = storage.key(0)!;
      const session = JSON.parse(storage.getItem(key)!) as { expires_at: number };
      session.expires_at = Math.floor(Date.now() / 1000) - 60;
      storage.setItem(key, JSON.stringify(session));
    };
    const goOnline = () => {
      device.online = true;
      target.dispatchEvent(new Event('online'));
    };
    return { client, device, env, expire, goOnline, token: data.session!.access_token };
  }

  /** Reads the expired session with no network: supabase-js retries for about 30 s (timers faked), then fails. */
  async function failRenewalOffline(client: SupabaseClient) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const read = client.auth.getSession();
      await vi.advanceTimersByTimeAsync(35_000);
      return await read;
    } finally {
      vi.useRealTimers();
    }
  }

  it('a renewal that failed offline is tried again as soon as the network is back, not a minute later', async () => {
    const { client, device, env, expire, goOnline, token } = await signedInDevice();
    expire();
    device.online = false;
    const stop = renewAtNetworkReturn(client.auth, isAuthRetryableFetchError, env);
    const offline = await failRenewalOffline(client);
    expect(isAuthRetryableFetchError(offline.error)).toBe(true);
    // The failure supabase-js holds for its cooldown, where the glue looks for it.
    expect((client.auth as unknown as { lastRefreshFailure: unknown }).lastRefreshFailure).not.toBeNull();

    // supabase-js alone: back online, the held failure answers and nothing is asked.
    device.online = true;
    const held = await client.auth.getSession();
    expect(isAuthRetryableFetchError(held.error)).toBe(true);
    expect(device.renewals).toBe(0);

    device.online = false;
    goOnline();
    await expect.poll(() => device.renewals, { timeout: 5_000 }).toBe(1);
    const renewed = await client.auth.getSession();
    expect(renewed.error).toBeNull();
    expect(renewed.data.session?.access_token).not.toBe(token);
    expect(renewed.data.session!.expires_at! * 1000).toBeGreaterThan(Date.now());
    stop();
  });

  it('a refusal stays held: the network’s return asks nothing', async () => {
    const { client, device, env, expire, goOnline, token } = await signedInDevice();
    // Every session of the account ends on the server ("Log out of all devices" elsewhere).
    const logout = await fetch(`${t.url}/auth/v1/logout?scope=global`, {
      method: 'POST',
      headers: { apikey: t.anonKey, authorization: `Bearer ${token}` },
    });
    expect(logout.status).toBe(204);
    expire();
    const refused = await client.auth.getSession();
    expect(refused.error).not.toBeNull();
    expect(isAuthRetryableFetchError(refused.error)).toBe(false);
    expect(device.renewals).toBe(1);

    device.online = false;
    const stop = renewAtNetworkReturn(client.auth, isAuthRetryableFetchError, env);
    goOnline();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(device.renewals).toBe(1);
    stop();
  });
});
