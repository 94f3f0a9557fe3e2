// Sessions on the device's clock: the pure rewrite, and supabase-js on a clock two hours ahead of the real
// server's, with and without the wrapped fetch (without it, every getSession refreshes the token again).
import crypto from 'node:crypto';
import { createClient } from '@supabase/supabase-js';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpConfirmed } from '../../tests/server/auth-support.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { onDeviceClock, withDeviceClockSessions } from './device-clock.ts';

const PASSWORD = 'Str0ng!Passw0rd';
const TWO_HOURS_MS = 2 * 60 * 60 * 1000;

describe('onDeviceClock', () => {
  it('sets expires_at to when the request left plus the lifetime', () => {
    const session = { access_token: 'a', refresh_token: 'r', expires_in: 3600, expires_at: 1_000 };
    expect(onDeviceClock(session, 5_000_500)).toEqual({ ...session, expires_at: 5_000 + 3600 });
  });

  it('leaves anything that is not a session as it was', () => {
    for (const body of [null, 'x', { id: 'u' }, { access_token: 'a' }, { access_token: 'a', expires_in: 0 }])
      expect(onDeviceClock(body, 1_000_000)).toBe(body);
  });
});

describe('supabase-js on a device clock two hours ahead', () => {
  let t: TestServer;
  const email = `skew-${crypto.randomUUID().slice(0, 8)}@example.test`;

  beforeAll(async () => {
    t = await startTestServer('pglite');
    await signUpConfirmed(t, email, PASSWORD, 'Skew');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  /**
   * The real server's answers as a server whose clock is two hours behind the device would send them
   * (`expires_at` two hours earlier); the server itself keeps judging tokens by its own clock.
   */
  const serverBehind: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!response.ok || !(response.headers.get('content-type') ?? '').includes('application/json'))
      return response;
    const body = (await response.json()) as Record<string, unknown>;
    if (typeof body['expires_at'] === 'number') body['expires_at'] -= TWO_HOURS_MS / 1000;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(JSON.stringify(body), { status: response.status, headers });
  };

  /** Signs in and calls getSession five times; counts the refreshes it sent. */
  async function refreshesOnSkewedClock(wrap: boolean): Promise<{ refreshes: number; expiresAt: number }> {
    const paths: string[] = [];
    const counting: typeof fetch = (input, init) => {
      paths.push(String(input instanceof Request ? input.url : input));
      return serverBehind(input, init);
    };
    const client = createClient(t.url, t.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
      global: { fetch: wrap ? withDeviceClockSessions(counting) : counting },
    });
    const { data, error } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    const expiresAt = data.session!.expires_at!;
    for (let i = 0; i < 5; i++) {
      const { data: now } = await client.auth.getSession();
      expect(now.session?.access_token).toBeTruthy();
    }
    return { refreshes: paths.filter((p) => p.includes('grant_type=refresh_token')).length, expiresAt };
  }

  it('without the wrapper the token looks expired on arrival and each getSession refreshes it', async () => {
    const { refreshes, expiresAt } = await refreshesOnSkewedClock(false);
    expect(expiresAt * 1000).toBeLessThan(Date.now());
    expect(refreshes).toBe(5);
  });

  it('with it the session expires an hour from now on the device clock and nothing is refreshed', async () => {
    const { refreshes, expiresAt } = await refreshesOnSkewedClock(true);
    expect(expiresAt * 1000 - Date.now()).toBeGreaterThan(3500 * 1000);
    expect(refreshes).toBe(0);
  });
});
