// The call functions (issue 18) through supabase-js, the real client: getstream-token issues a Stream user
// token only to a signed-in premium member for their own id, signed with the instance's secret (which never
// appears in an answer); call-config says which transport the instance uses and hands its ICE servers to
// members only; the Stream secret and TURN credentials never reach an anonymous caller.
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createSignedInMember } from './auth-support.ts';
import { makeClient } from './realtime-support.ts';

const SECRET = 'stream-secret-for-tests-only';
const ICE = JSON.stringify([
  { urls: 'stun:stun.example.org:3478' },
  { urls: ['turn:turn.example.org:3478'], username: 'hs', credential: 'turn-pass' },
]);

async function grantPremium(t: TestServer, id: string) {
  await t.db.query(
    `insert into public.subscriptions (user_id, plan_id, billing_cycle, status, current_period_end)
     values ($1, 'premium', 'monthly', 'active', now() + interval '30 days')`,
    [id],
  );
}

async function invoke(t: TestServer, name: string, token: string | undefined, body: unknown) {
  const sb = await makeClient(t, token);
  const { data, error } = await sb.functions.invoke<Record<string, unknown>>(name, {
    method: 'POST',
    body: body as object,
  });
  const context = (error as { context?: Response } | null)?.context;
  return {
    data,
    status: context?.status ?? 200,
    said: context ? ((await context.json().catch(() => null)) as { error?: string } | null) : null,
  };
}

describe('calls through Stream', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('pglite', {
      STREAM_API_KEY: 'stream-key',
      STREAM_API_SECRET: SECRET,
      ICE_SERVERS: ICE,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('getstream-token gives a premium member a token for themself that verifies with the secret', async () => {
    const m = await createSignedInMember(t, 'stream');
    await grantPremium(t, m.id);
    const r = await invoke(t, 'getstream-token', m.token, { user_id: m.id });
    expect(r.status).toBe(200);
    const token = r.data?.['token'] as string;
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(SECRET));
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.user_id).toBe(m.id);
    expect(payload.exp! - payload.iat!).toBe(3600);
    expect(r.data?.['api_key']).toBe('stream-key');
    expect(JSON.stringify(r.data)).not.toContain(SECRET);
  });

  it('refuses another member’s id, a missing id, no session and a free member', async () => {
    const m = await createSignedInMember(t, 'stream');
    const other = await createSignedInMember(t, 'stream');
    await grantPremium(t, m.id);
    expect((await invoke(t, 'getstream-token', m.token, { user_id: other.id })).status).toBe(403);
    expect((await invoke(t, 'getstream-token', m.token, {})).status).toBe(400);
    expect((await invoke(t, 'getstream-token', m.token, { user_id: 42 })).status).toBe(400);
    const anonymous = await invoke(t, 'getstream-token', undefined, { user_id: m.id });
    expect(anonymous.status).toBe(401);
    expect(anonymous.said?.error).toBe('User not authenticated');
    const free = await invoke(t, 'getstream-token', other.token, { user_id: other.id });
    expect(free.status).toBe(403);
    expect(free.said?.error).toBe('Both users must have a premium subscription to start a video call.');
  });

  it('call-config names Stream and its public key, and the ICE servers, to members only', async () => {
    const m = await createSignedInMember(t, 'stream');
    const r = await invoke(t, 'call-config', m.token, {});
    expect(r.data).toEqual({
      provider: 'getstream',
      streamApiKey: 'stream-key',
      iceServers: [
        { urls: 'stun:stun.example.org:3478' },
        { urls: 'turn:turn.example.org:3478', username: 'hs', credential: 'turn-pass' },
      ],
    });
    const anonymous = await invoke(t, 'call-config', undefined, {});
    expect(anonymous.status).toBe(401);
    expect(JSON.stringify(anonymous.said)).not.toContain('turn-pass');
  });

  it('the page allows Stream’s servers in its Content Security Policy', async () => {
    const res = await fetch(`${t.url}/`);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain('https://video.stream-io-api.com');
    expect(csp).toContain('wss://*.stream-io-video.com');
  });
});

describe('calls peer to peer (no Stream keys)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('call-config says webrtc with no ICE servers; getstream-token says Stream is not set up', async () => {
    const m = await createSignedInMember(t, 'p2p');
    await grantPremium(t, m.id);
    expect((await invoke(t, 'call-config', m.token, {})).data).toEqual({
      provider: 'webrtc',
      iceServers: [],
    });
    expect((await invoke(t, 'getstream-token', m.token, { user_id: m.id })).status).toBe(503);
    const csp = (await fetch(`${t.url}/`)).headers.get('content-security-policy') ?? '';
    expect(csp).not.toContain('stream-io');
  });
});
