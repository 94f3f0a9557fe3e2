// Who may connect and join: API key, access tokens on join and refresh, member-only channels, ended sessions.
import crypto from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import {
  closeClient,
  createMember,
  insertMatchedConversation,
  makeClient,
  openRawSocket,
  signMemberToken,
  subscribe,
  waitFor,
  type Member,
} from './realtime-support.ts';

/** The HTTP status a WebSocket upgrade is refused with (or 101 when it opens). */
function getUpgradeStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', (e) => {
      if (!/Unexpected server response/.test(e.message)) reject(e);
    });
  });
}

describe.each(getDatabaseKinds())('realtime access on %s', (kind) => {
  let t: TestServer;
  let alice: Member;
  let mallory: Member;
  let matchOfAlice: Member;
  let conversationId: string;
  let callId: string;
  let gameId: string;
  const clients: SupabaseClient[] = [];
  const client = async (token?: string) => {
    const c = await makeClient(t, token);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await startTestServer(kind);
    alice = await createMember(t);
    matchOfAlice = await createMember(t);
    mallory = await createMember(t);
    // Alice and her match are matched; the rows' own triggers (premium for calls, game types) are not
    // what is tested here, so they are written as the database owner with triggers off (pair_key by hand, 0060).
    [conversationId, callId, gameId] = await t.db.transaction(async (tx) => {
      await tx.exec(`set local session_replication_role = replica`);
      const conversation = await insertMatchedConversation(tx, alice.id, matchOfAlice.id);
      const call = await tx.query<{ id: string }>(
        `insert into public.video_calls (caller_id, recipient_id, pair_key) values ($1, $2, public.member_pair_key($1, $2)) returning id`,
        [alice.id, matchOfAlice.id],
      );
      const game = await tx.query<{ id: string }>(
        `insert into public.game_sessions (player1_id, player2_id, game_type, pair_key) values ($1, $2, 'test', public.member_pair_key($1, $2)) returning id`,
        [alice.id, matchOfAlice.id],
      );
      return [conversation, call.rows[0]!.id, game.rows[0]!.id];
    });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map(closeClient));
  });
  afterAll(async () => {
    await t?.close();
  });

  const wsUrl = () => `${t.url.replace('http', 'ws')}/realtime/v1/websocket`;

  it('refuses a connection without an API key, with a bad one, or with a user token as the key', async () => {
    expect(await getUpgradeStatus(`${wsUrl()}?vsn=2.0.0`)).toBe(401);
    expect(await getUpgradeStatus(`${wsUrl()}?apikey=nonsense&vsn=2.0.0`)).toBe(401);
    expect(await getUpgradeStatus(`${wsUrl()}?apikey=${alice.token}&vsn=2.0.0`)).toBe(401);
    expect(await getUpgradeStatus(`${wsUrl()}?apikey=${t.anonKey}&vsn=9.9.9`)).toBe(400);
    expect(await getUpgradeStatus(`${wsUrl()}?apikey=${t.anonKey}&vsn=2.0.0`)).toBe(101);
    expect((await fetch(`${t.url}/health`)).status).toBe(200);
  });

  it('refuses a join with an expired or forged access token', async () => {
    const expired = await signMemberToken(t, alice.id, -60);
    const outcome = await subscribe((await client(expired)).channel('online-users'));
    expect(outcome.status).toBe('CHANNEL_ERROR');
    expect(outcome.error?.message).toMatch(/invalid or expired/i);

    const forged = `${alice.token.slice(0, -4)}AAAA`;
    const forgedOutcome = await subscribe((await client(forged)).channel('public:lobby'));
    expect(forgedOutcome.status).toBe('CHANNEL_ERROR');
  });

  it('lets the two members of a conversation join it and signal each other', async () => {
    const a = (await client(alice.token)).channel(`conversation:${conversationId}`, {
      config: { private: true },
    });
    const m = (await client(matchOfAlice.token)).channel(`conversation:${conversationId}`, {
      config: { private: true },
    });
    const got: unknown[] = [];
    m.on('broadcast', { event: 'typing' }, (msg) => got.push(msg['payload']));
    expect((await subscribe(a)).status).toBe('SUBSCRIBED');
    expect((await subscribe(m)).status).toBe('SUBSCRIBED');
    await a.send({ type: 'broadcast', event: 'typing', payload: { typing: true } });
    await waitFor('the match receives typing', () => got.length === 1);
    expect(got).toEqual([{ typing: true }]);
  });

  it('refuses a member who does not belong to a conversation, call or game, and delivers nothing from them', async () => {
    const aliceGot: unknown[] = [];
    const a = (await client(alice.token)).channel(`call:${callId}`, { config: { private: true } });
    a.on('broadcast', { event: '*' }, (msg) => aliceGot.push(msg));
    expect((await subscribe(a)).status).toBe('SUBSCRIBED');

    for (const topic of [`conversation:${conversationId}`, `call:${callId}`, `game:${gameId}`]) {
      for (const isPrivate of [true, false]) {
        const outcome = await subscribe(
          (await client(mallory.token)).channel(topic, { config: { private: isPrivate } }),
        );
        expect(outcome.status, topic).toBe('CHANNEL_ERROR');
        expect(outcome.error?.message).toMatch(/not a member/i);
      }
    }
    // Anonymous visitors and unknown ids are refused the same way.
    expect((await subscribe((await client()).channel(`call:${callId}`))).status).toBe('CHANNEL_ERROR');
    expect((await subscribe((await client(alice.token)).channel(`call:${crypto.randomUUID()}`))).status).toBe(
      'CHANNEL_ERROR',
    );

    // Mallory pushes signalling onto the call topic without having joined: refused, nothing delivered.
    const ws = await openRawSocket(t);
    const replies: unknown[] = [];
    ws.on('message', (data) => replies.push(JSON.parse(String(data))));
    ws.send(
      JSON.stringify(['1', '1', `realtime:call:${callId}`, 'phx_join', { access_token: mallory.token }]),
    );
    ws.send(
      JSON.stringify([
        '1',
        '2',
        `realtime:call:${callId}`,
        'broadcast',
        { type: 'broadcast', event: 'offer', payload: { sdp: 'x' } },
      ]),
    );
    await waitFor('two replies', () => replies.length >= 2);
    expect(replies).toEqual(
      expect.arrayContaining([
        ['1', '1', `realtime:call:${callId}`, 'phx_reply', expect.objectContaining({ status: 'error' })],
        [
          '1',
          '2',
          `realtime:call:${callId}`,
          'phx_reply',
          { status: 'error', response: { reason: 'unmatched topic' } },
        ],
      ]),
    );
    ws.close();
    // A member's message sent after Mallory's arrives, and it is the only one Alice got.
    const m = (await client(matchOfAlice.token)).channel(`call:${callId}`, { config: { private: true } });
    expect((await subscribe(m)).status).toBe('SUBSCRIBED');
    await m.send({ type: 'broadcast', event: 'answer', payload: { sdp: 'y' } });
    await waitFor('the answer arrives', () => aliceGot.length >= 1);
    expect(aliceGot).toEqual([expect.objectContaining({ event: 'answer', payload: { sdp: 'y' } })]);
  });

  it('lets call and game members join their channels', async () => {
    for (const topic of [`call:${callId}`, `game:${gameId}`]) {
      for (const m of [alice, matchOfAlice]) {
        expect(
          (await subscribe((await client(m.token)).channel(topic, { config: { private: true } }))).status,
        ).toBe('SUBSCRIBED');
      }
    }
  });

  it('refuses unknown channel names', async () => {
    for (const topic of [
      'secret',
      'conversation:not-a-uuid',
      'user:' + alice.id,
      'public:' + 'x'.repeat(200),
    ]) {
      const outcome = await subscribe((await client(alice.token)).channel(topic));
      expect(outcome.status, topic).toBe('CHANNEL_ERROR');
    }
  });

  it('closes a channel whose token is refreshed to an invalid one; others see the member leave', async () => {
    const aliceClient = await client(alice.token);
    const a = aliceClient.channel('online-users');
    a.on('presence', { event: 'sync' }, () => {});
    const system: Record<string, unknown>[] = [];
    a.on('system', {}, (payload) => system.push(payload as Record<string, unknown>));
    const statuses: string[] = [];
    a.subscribe((status) => statuses.push(status));
    await waitFor('subscribed', () => statuses.includes('SUBSCRIBED'));
    await a.track({ userId: alice.id });

    const m = (await client(matchOfAlice.token)).channel('online-users');
    m.on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(m)).status).toBe('SUBSCRIBED');
    await waitFor('the match sees alice', () => m.presenceState()[alice.id]);

    await aliceClient.realtime.setAuth('not-a-jwt');
    await waitFor('channel closed', () => statuses.includes('CLOSED'));
    expect(system[0]).toMatchObject({ status: 'error', extension: 'system' });
    expect(String(system[0]?.['message'])).toMatch(/invalid or expired/i);
    await waitFor('alice left for the match', () => !m.presenceState()[alice.id], 1000);
  });

  it('keeps a channel open when the token is refreshed to a valid one of the same member', async () => {
    const aliceClient = await client(alice.token);
    const a = aliceClient.channel(`conversation:${conversationId}`, { config: { private: true } });
    const statuses: string[] = [];
    a.subscribe((status) => statuses.push(status));
    await waitFor('subscribed', () => statuses.includes('SUBSCRIBED'));
    const m = (await client(matchOfAlice.token)).channel(`conversation:${conversationId}`, {
      config: { private: true },
    });
    const got: unknown[] = [];
    m.on('broadcast', { event: 'note' }, (msg) => got.push(msg['payload']));
    expect((await subscribe(m)).status).toBe('SUBSCRIBED');

    await aliceClient.realtime.setAuth(await signMemberToken(t, alice.id, 7200));
    await a.send({ type: 'broadcast', event: 'note', payload: { n: 1 } });
    await waitFor('delivered after refresh', () => got.length === 1);
    expect(statuses).not.toContain('CLOSED');

    // A token of someone else is not a refresh: the member channel closes.
    await aliceClient.realtime.setAuth(mallory.token);
    await waitFor('closed on identity change', () => statuses.includes('CLOSED'));
  });

  it('closes a channel when its token expires without a refresh', async () => {
    const shortLived = await signMemberToken(t, alice.id, 2);
    const a = (await client(shortLived)).channel('online-users');
    const system: Record<string, unknown>[] = [];
    a.on('system', {}, (payload) => system.push(payload as Record<string, unknown>));
    const statuses: string[] = [];
    a.subscribe((status) => statuses.push(status));
    await waitFor('subscribed', () => statuses.includes('SUBSCRIBED'));
    await waitFor('closed at expiry', () => statuses.includes('CLOSED'), 5000);
    expect(String(system[0]?.['message'])).toMatch(/expired/i);
  });

  it('closes the channels and socket of a member whose sessions ended', async () => {
    const aliceClient = await client(alice.token);
    const a = aliceClient.channel('online-users');
    const statuses: string[] = [];
    a.subscribe((status) => statuses.push(status));
    const m = (await client(matchOfAlice.token)).channel('online-users');
    const mStatuses: string[] = [];
    m.subscribe((status) => mStatuses.push(status));
    await waitFor(
      'both subscribed',
      () => statuses.includes('SUBSCRIBED') && mStatuses.includes('SUBSCRIBED'),
    );

    t.server.ctx.events.emit('sessions-ended', { userId: alice.id, sessionIds: 'all' });
    await waitFor('alice closed', () => statuses.includes('CLOSED'));
    expect(mStatuses).not.toContain('CLOSED');
  });

  it('over HTTP, only members may broadcast to a member channel', async () => {
    const m = (await client(matchOfAlice.token)).channel(`conversation:${conversationId}`, {
      config: { private: true },
    });
    const got: unknown[] = [];
    m.on('broadcast', { event: 'note' }, (msg) => got.push(msg['payload']));
    expect((await subscribe(m)).status).toBe('SUBSCRIBED');

    const malloryChannel = (await client(mallory.token)).channel(`conversation:${conversationId}`, {
      config: { private: true },
    });
    await expect(malloryChannel.httpSend('note', { from: 'mallory' })).rejects.toThrow(/not a member/i);
    const aliceChannel = (await client(alice.token)).channel(`conversation:${conversationId}`, {
      config: { private: true },
    });
    expect(await aliceChannel.httpSend('note', { from: 'alice' })).toEqual({ success: true });
    await waitFor('alice arrives', () => got.length >= 1);
    expect(got).toEqual([{ from: 'alice' }]);
  });

  it('a member who signs out with supabase-js loses their channels elsewhere, and the old token is refused', async () => {
    const noSession = { persistSession: false, autoRefreshToken: false };
    const service = createClient(t.url, t.serviceRoleKey, {
      auth: noSession,
      realtime: { transport: WebSocket as never },
    });
    const email = `rt-${crypto.randomUUID()}@example.test`;
    const password = 'Correct-Horse-Battery-9';
    const created = await service.auth.admin.createUser({ email, password, email_confirm: true });
    expect(created.error).toBeNull();
    const user = createClient(t.url, t.anonKey, {
      auth: noSession,
      realtime: { transport: WebSocket as never },
    });
    clients.push(user);
    const signedIn = await user.auth.signInWithPassword({ email, password });
    expect(signedIn.error).toBeNull();
    const oldToken = signedIn.data.session!.access_token;

    // Another device of the same session (it holds the same token and never refreshes it).
    const other = (await client(oldToken)).channel('online-users');
    const statuses: string[] = [];
    other.subscribe((status) => statuses.push(status));
    await waitFor('subscribed with the real session token', () => statuses.includes('SUBSCRIBED'));

    expect((await user.auth.signOut()).error).toBeNull();
    await waitFor('closed by the sign-out', () => statuses.includes('CLOSED'));
    const again = await subscribe((await client(oldToken)).channel('online-users'));
    expect(again.status).toBe('CHANNEL_ERROR');
  });

  it('re-checks membership on token refresh: a call row that is gone closes its channel', async () => {
    const tempCallId = await t.db.transaction(async (tx) => {
      await tx.exec(`set local session_replication_role = replica`);
      const r = await tx.query<{ id: string }>(
        `insert into public.video_calls (caller_id, recipient_id, pair_key) values ($1, $2, public.member_pair_key($1, $2)) returning id`,
        [alice.id, matchOfAlice.id],
      );
      return r.rows[0]!.id;
    });
    const aliceClient = await client(alice.token);
    const a = aliceClient.channel(`call:${tempCallId}`, { config: { private: true } });
    const statuses: string[] = [];
    a.subscribe((status) => statuses.push(status));
    await waitFor('subscribed', () => statuses.includes('SUBSCRIBED'));
    await t.db.query(`delete from public.video_calls where id = $1`, [tempCallId]);
    await aliceClient.realtime.setAuth(await signMemberToken(t, alice.id, 7200));
    await waitFor('closed after the refresh', () => statuses.includes('CLOSED'));
  });
});
