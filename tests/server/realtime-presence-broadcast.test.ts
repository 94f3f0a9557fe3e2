// Presence and broadcast between real supabase-js clients on the running server.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import {
  closeClient,
  createMember,
  makeClient,
  subscribe,
  waitFor,
  type Member,
} from './realtime-support.ts';

describe.each(getDatabaseKinds())('realtime presence and broadcast on %s', (kind) => {
  let t: TestServer;
  let alice: Member;
  let bob: Member;
  const clients: SupabaseClient[] = [];
  const client = async (token?: string) => {
    const c = await makeClient(t, token);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await startTestServer(kind);
    alice = await createMember(t);
    bob = await createMember(t);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map(closeClient));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('two members see each other on online-users: sync, join and leave as they happen', async () => {
    const a = (await client(alice.token)).channel('online-users');
    const aJoins: string[] = [];
    const aLeaves: string[] = [];
    a.on('presence', { event: 'join' }, ({ key }) => aJoins.push(key))
      .on('presence', { event: 'leave' }, ({ key }) => aLeaves.push(key))
      .on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(a)).status).toBe('SUBSCRIBED');
    expect(await a.track({ userId: alice.id, lastActivity: 1 })).toBe('ok');
    await waitFor('alice sees herself', () => a.presenceState()[alice.id]);

    const bobClient = await client(bob.token);
    const b = bobClient.channel('online-users');
    b.on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(b)).status).toBe('SUBSCRIBED');
    // The state on join already holds alice.
    await waitFor('bob sees alice from presence_state', () => b.presenceState()[alice.id]);
    expect(b.presenceState()[alice.id]?.[0]).toMatchObject({ userId: alice.id, lastActivity: 1 });

    expect(await b.track({ userId: bob.id, lastActivity: 2 })).toBe('ok');
    await waitFor('alice sees bob join', () => aJoins.includes(bob.id), 10_000);
    expect(a.presenceState()[bob.id]?.[0]).toMatchObject({ userId: bob.id, lastActivity: 2 });

    await closeClient(bobClient);
    await waitFor('alice sees bob leave', () => aLeaves.includes(bob.id), 10_000);
    expect(a.presenceState()[bob.id]).toBeUndefined();
  });

  it('a member cannot appear on online-users as someone else', async () => {
    const a = (await client(alice.token)).channel('online-users', { config: { presence: { key: bob.id } } });
    a.on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(a)).status).toBe('SUBSCRIBED');
    // The key is forced to the member's own id; a payload naming someone else is refused.
    expect(await a.track({ userId: bob.id })).toBe('error');
    expect(await a.track({ userId: alice.id })).toBe('ok');
    await waitFor('own presence', () => a.presenceState()[alice.id]);
    expect(a.presenceState()[bob.id]).toBeUndefined();
  });

  it('untrack makes the member leave for others', async () => {
    const a = (await client(alice.token)).channel('online-users');
    a.on('presence', { event: 'sync' }, () => {});
    const b = (await client(bob.token)).channel('online-users');
    b.on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(a)).status).toBe('SUBSCRIBED');
    expect((await subscribe(b)).status).toBe('SUBSCRIBED');
    await a.track({ userId: alice.id });
    await waitFor('bob sees alice', () => b.presenceState()[alice.id]);
    expect(await a.untrack()).toBe('ok');
    await waitFor('alice gone for bob', () => !b.presenceState()[alice.id]);
  });

  it('a member who hides their online status is never shown on online-users, whatever their client sends', async () => {
    const carol = await createMember(t);
    await t.db.query('update public.profiles set show_online_status = false where id = $1', [carol.id]);
    const b = (await client(bob.token)).channel('online-users');
    const bobSawCarol: string[] = [];
    b.on('presence', { event: 'join' }, ({ key }) => {
      if (key === carol.id) bobSawCarol.push(key);
    });
    expect((await subscribe(b)).status).toBe('SUBSCRIBED');
    expect(await b.track({ userId: bob.id, lastActivity: 1 })).toBe('ok');

    const c = (await client(carol.token)).channel('online-users');
    c.on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(c)).status).toBe('SUBSCRIBED');
    expect(await c.track({ userId: carol.id, lastActivity: 1 })).toBe('error');
    // Carol still sees who is online; she is just not among them.
    await waitFor('carol sees bob', () => c.presenceState()[bob.id]);
    expect(c.presenceState()[carol.id]).toBeUndefined();

    // Shown again once she turns it on (read from the database at each track).
    await t.db.query('update public.profiles set show_online_status = true where id = $1', [carol.id]);
    expect(await c.track({ userId: carol.id, lastActivity: 2 })).toBe('ok');
    await waitFor('bob sees carol', () => b.presenceState()[carol.id]);
    expect(bobSawCarol).toEqual([carol.id]);

    // Turned off while shown: her next refresh is refused and drops her entry for everyone.
    await t.db.query('update public.profiles set show_online_status = false where id = $1', [carol.id]);
    expect(await c.track({ userId: carol.id, lastActivity: 3 })).toBe('error');
    await waitFor('carol gone for bob', () => !b.presenceState()[carol.id]);
    // A member whose profile row cannot be read (none here) is not shown either.
    const ghost = await createMember(t);
    await t.db.query('delete from public.profiles where id = $1', [ghost.id]);
    const g = (await client(ghost.token)).channel('online-users');
    g.on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(g)).status).toBe('SUBSCRIBED');
    expect(await g.track({ userId: ghost.id })).toBe('error');
    // Someone joining now gets the full state: bob, and neither carol nor the ghost.
    const late = (await client(alice.token)).channel('online-users');
    late.on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(late)).status).toBe('SUBSCRIBED');
    await waitFor('the newcomer sees bob', () => late.presenceState()[bob.id]);
    expect(Object.keys(late.presenceState())).toEqual([bob.id]);
  });

  it('a refresh on online-users updates lastActivity for newcomers without a leave and join for others', async () => {
    const a = (await client(alice.token)).channel('online-users');
    const aDiffs: string[] = [];
    a.on('presence', { event: 'join' }, ({ key }) => aDiffs.push(`join ${key}`)).on(
      'presence',
      { event: 'leave' },
      ({ key }) => aDiffs.push(`leave ${key}`),
    );
    expect((await subscribe(a)).status).toBe('SUBSCRIBED');
    const b = (await client(bob.token)).channel('online-users');
    b.on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(b)).status).toBe('SUBSCRIBED');
    expect(await b.track({ userId: bob.id, lastActivity: 1 })).toBe('ok');
    await waitFor('alice sees bob', () => aDiffs.includes(`join ${bob.id}`));
    expect(await b.track({ userId: bob.id, lastActivity: 2 })).toBe('ok');
    // Alice's own track comes after bob's refresh on the same server: once she sees it, a diff for bob would have come first.
    expect(await a.track({ userId: alice.id, lastActivity: 2 })).toBe('ok');
    await waitFor('alice sees herself', () => aDiffs.includes(`join ${alice.id}`));
    expect(aDiffs).toEqual([`join ${bob.id}`, `join ${alice.id}`]);
    expect(a.presenceState()[bob.id]?.[0]).toMatchObject({ lastActivity: 1 });

    const late = (await client(alice.token)).channel('online-users');
    late.on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(late)).status).toBe('SUBSCRIBED');
    await waitFor('the newcomer sees bob', () => late.presenceState()[bob.id]);
    expect(late.presenceState()[bob.id]?.[0]).toMatchObject({ lastActivity: 2 });
  });

  it('anonymous visitors cannot join online-users', async () => {
    const anon = (await client()).channel('online-users');
    anon.on('presence', { event: 'sync' }, () => {});
    const outcome = await subscribe(anon);
    expect(outcome.status).toBe('CHANNEL_ERROR');
    expect(outcome.error?.message).toMatch(/sign in/i);
  });

  it('broadcast reaches the other member; self only when asked, ack when asked', async () => {
    const topic = 'public:room-1';
    const a = (await client(alice.token)).channel(topic, {
      config: { broadcast: { self: true, ack: true } },
    });
    const b = (await client(bob.token)).channel(topic, { config: { broadcast: { self: false } } });
    const aGot: unknown[] = [];
    const bGot: unknown[] = [];
    a.on('broadcast', { event: 'cursor' }, (m) => aGot.push(m['payload']));
    b.on('broadcast', { event: 'cursor' }, (m) => bGot.push(m['payload']));
    expect((await subscribe(a)).status).toBe('SUBSCRIBED');
    expect((await subscribe(b)).status).toBe('SUBSCRIBED');

    // With ack the server answers, so 'ok' means it was received.
    expect(await a.send({ type: 'broadcast', event: 'cursor', payload: { x: 1, text: 'héllo 💘' } })).toBe(
      'ok',
    );
    await waitFor('bob receives alice', () => bGot.length === 1);
    await waitFor('alice receives her own (self)', () => aGot.length === 1);
    expect(bGot[0]).toEqual({ x: 1, text: 'héllo 💘' });
    expect(aGot[0]).toEqual({ x: 1, text: 'héllo 💘' });

    await b.send({ type: 'broadcast', event: 'cursor', payload: { x: 2 } });
    await waitFor('alice receives bob', () => aGot.length === 2);
    expect(aGot[1]).toEqual({ x: 2 });
    // Bob did not ask for self: give a stray echo time to arrive, then check there was none.
    await a.send({ type: 'broadcast', event: 'cursor', payload: { x: 3 } });
    await waitFor('bob receives the third', () => bGot.length === 2);
    expect(bGot).toEqual([{ x: 1, text: 'héllo 💘' }, { x: 3 }]);
  });

  it('broadcast on another topic or event is not delivered', async () => {
    const a = (await client(alice.token)).channel('public:room-a');
    const b = (await client(bob.token)).channel('public:room-b');
    const bGot: unknown[] = [];
    b.on('broadcast', { event: '*' }, (m) => bGot.push(m));
    expect((await subscribe(a)).status).toBe('SUBSCRIBED');
    expect((await subscribe(b)).status).toBe('SUBSCRIBED');
    const b2 = (await client(alice.token)).channel('public:room-b');
    const b2Got: unknown[] = [];
    b2.on('broadcast', { event: 'only-this' }, (m) => b2Got.push(m['payload']));
    expect((await subscribe(b2)).status).toBe('SUBSCRIBED');

    await a.send({ type: 'broadcast', event: 'x', payload: { n: 1 } });
    await b.send({ type: 'broadcast', event: 'other', payload: { n: 2 } });
    await b.send({ type: 'broadcast', event: 'only-this', payload: { n: 3 } });
    await waitFor('b2 gets its event', () => b2Got.length === 1);
    expect(b2Got).toEqual([{ n: 3 }]);
    expect(bGot).toEqual([]);
  });

  it('a broadcast sent before joining goes over HTTP and still arrives', async () => {
    const b = (await client(bob.token)).channel('public:late');
    const got: unknown[] = [];
    b.on('broadcast', { event: 'hello' }, (m) => got.push(m['payload']));
    expect((await subscribe(b)).status).toBe('SUBSCRIBED');
    const aliceClient = await client(alice.token);
    // Not subscribed: realtime-js falls back to POST /realtime/v1/api/broadcast.
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(
        await aliceClient
          .channel('public:late')
          .send({ type: 'broadcast', event: 'hello', payload: { n: 1 } }),
      ).toBe('ok');
    } finally {
      console.warn = warn;
    }
    expect(await aliceClient.channel('public:late').httpSend('hello', { n: 2 })).toEqual({ success: true });
    await waitFor('both arrive', () => got.length === 2);
    expect(got).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('the HTTP broadcast endpoint refuses bad keys and bodies with 4xx', async () => {
    const post = (body: unknown, headers: Record<string, string>) =>
      fetch(`${t.url}/realtime/v1/api/broadcast`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    const good = { messages: [{ topic: 'public:x', event: 'e', payload: {} }] };
    expect((await post(good, {})).status).toBe(401);
    expect((await post(good, { apikey: 'nope' })).status).toBe(401);
    expect((await post(good, { apikey: t.anonKey, authorization: 'Bearer nope' })).status).toBe(401);
    expect((await post({ messages: 'x' }, { apikey: t.anonKey })).status).toBe(400);
    expect((await post('{not json', { apikey: t.anonKey })).status).toBe(400);
    expect((await post({ messages: [{ topic: 'secret', event: 'e' }] }, { apikey: t.anonKey })).status).toBe(
      404,
    );
    expect(
      (await post({ messages: [{ topic: 'online-users', event: 'e' }] }, { apikey: t.anonKey })).status,
    ).toBe(403);
    expect((await post(good, { apikey: t.anonKey })).status).toBe(202);
  });

  it('the HTTP broadcast endpoint answers 429 to a flood from one address, then recovers', async () => {
    const body = JSON.stringify({ messages: [{ topic: 'public:x', event: 'e', payload: {} }] });
    const send = () =>
      fetch(`${t.url}/realtime/v1/api/broadcast`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', apikey: t.anonKey },
        body,
      }).then((r) => r.status);
    const statuses = await Promise.all(Array.from({ length: 250 }, send));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 202 || s === 429)).toBe(true);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await send()).toBe(202);
  });

  it('a client on protocol 1.0.0 and one on 2.0.0 share presence and broadcast', async () => {
    const legacy = createClient(t.url, t.anonKey, {
      accessToken: async () => alice.token,
      realtime: { transport: WebSocket as never, vsn: '1.0.0' },
    });
    clients.push(legacy);
    await legacy.realtime.setAuth(alice.token);
    const a = legacy.channel('online-users');
    const aGot: unknown[] = [];
    a.on('presence', { event: 'sync' }, () => {}).on('broadcast', { event: 'hi' }, (m) =>
      aGot.push(m['payload']),
    );
    const b = (await client(bob.token)).channel('online-users');
    const bGot: unknown[] = [];
    b.on('presence', { event: 'sync' }, () => {}).on('broadcast', { event: 'hi' }, (m) =>
      bGot.push(m['payload']),
    );
    expect((await subscribe(a)).status).toBe('SUBSCRIBED');
    expect((await subscribe(b)).status).toBe('SUBSCRIBED');
    await a.track({ userId: alice.id });
    await waitFor('bob sees the legacy client', () => b.presenceState()[alice.id]);
    await a.send({ type: 'broadcast', event: 'hi', payload: { from: 'v1' } });
    await b.send({ type: 'broadcast', event: 'hi', payload: { from: 'v2' } });
    await waitFor('both directions', () => aGot.length === 1 && bGot.length === 1);
    expect(aGot).toEqual([{ from: 'v2' }]);
    expect(bGot).toEqual([{ from: 'v1' }]);
  });
});
