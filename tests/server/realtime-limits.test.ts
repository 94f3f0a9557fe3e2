// Abuse of the realtime socket: big frames, malformed frames, floods and too many channels never hurt others.
import type { SupabaseClient } from '@supabase/supabase-js';
import fc from 'fast-check';
import type WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_LIMITS } from '../../server/realtime/limits.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import {
  closeClient,
  createMember,
  makeClient,
  openRawSocket,
  subscribe,
  waitFor,
  waitForClose,
  type Member,
} from './realtime-support.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Collects parsed text frames a raw socket receives. */
function collectReplies(ws: WebSocket): unknown[][] {
  const replies: unknown[][] = [];
  ws.on('message', (data, isBinary) => {
    if (!isBinary) replies.push(JSON.parse(String(data)) as unknown[]);
  });
  return replies;
}

/** Sends frames no faster than the rate limit allows, so only the content is under test. */
async function sendPaced(ws: WebSocket, frames: (string | Buffer)[]): Promise<void> {
  const perBatch = Math.floor(REALTIME_LIMITS.messagesPerSecond / 2);
  for (let i = 0; i < frames.length; i += perBatch) {
    for (const f of frames.slice(i, i + perBatch)) ws.send(f);
    await sleep(600);
  }
}

describe.each(getDatabaseKinds())('realtime limits on %s', (kind) => {
  let t: TestServer;
  let alice: Member;
  let bob: Member;
  const clients: SupabaseClient[] = [];
  const sockets: WebSocket[] = [];
  const client = async (token?: string) => {
    const c = await makeClient(t, token);
    clients.push(c);
    return c;
  };
  const raw = async () => {
    const ws = await openRawSocket(t);
    sockets.push(ws);
    return ws;
  };

  /** Proves the server still serves: health, and a broadcast between two fresh clients. */
  async function expectServerHealthy(): Promise<void> {
    expect((await fetch(`${t.url}/health`)).status).toBe(200);
    const a = (await client(alice.token)).channel('public:health');
    const b = (await client(bob.token)).channel('public:health');
    const got: unknown[] = [];
    b.on('broadcast', { event: 'ping' }, (m) => got.push(m['payload']));
    expect((await subscribe(a)).status).toBe('SUBSCRIBED');
    expect((await subscribe(b)).status).toBe('SUBSCRIBED');
    await a.send({ type: 'broadcast', event: 'ping', payload: { ok: true } });
    await waitFor('ping delivered', () => got.length === 1);
  }

  beforeAll(async () => {
    t = await startTestServer(kind);
    alice = await createMember(t);
    bob = await createMember(t);
  });
  afterEach(async () => {
    for (const ws of sockets.splice(0)) ws.terminate();
    await Promise.all(clients.splice(0).map(closeClient));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('closes a connection that sends a 2 MB frame, and the server stays healthy', async () => {
    const ws = await raw();
    ws.send(Buffer.alloc(2 * 1024 * 1024, 0x61));
    expect(await waitForClose(ws)).toBe(1009);
    await expectServerHealthy();
  });

  it('closes a connection whose message is over the message limit though under the wire limit', async () => {
    const ws = await raw();
    const big = JSON.stringify([null, '1', 'realtime:public:x', 'phx_join', { pad: 'x'.repeat(100 * 1024) }]);
    ws.send(big);
    expect(await waitForClose(ws)).toBe(1009);
  });

  it('answers known-shaped bad messages with an error and ignores junk, never crashing', async () => {
    const ws = await raw();
    const replies = collectReplies(ws);
    await sendPaced(ws, [
      'not json',
      '{}',
      '[]',
      '[1,2,3,4,5]',
      JSON.stringify([null, '1', 'realtime:public:nope', 'broadcast', { event: 'x' }]),
      JSON.stringify([null, '2', 'realtime:public:ok', 'phx_join', { config: { broadcast: 'yes' } }]),
      JSON.stringify([null, '3', 'realtime:public:ok', 'phx_join', 'not an object']),
      JSON.stringify([null, '4', 'phoenix', 'heartbeat', {}]),
      Buffer.from([3, 200, 200, 200, 200, 200, 1]), // binary push whose lengths run past the end
      Buffer.from([9, 0, 0]),
    ]);
    await waitFor('replies to the ref-carrying frames', () => replies.length >= 4);
    expect(replies).toEqual(
      expect.arrayContaining([
        [
          null,
          '1',
          'realtime:public:nope',
          'phx_reply',
          { status: 'error', response: { reason: 'unmatched topic' } },
        ],
        [null, '2', 'realtime:public:ok', 'phx_reply', expect.objectContaining({ status: 'error' })],
        [null, '4', 'phoenix', 'phx_reply', { status: 'ok', response: {} }],
      ]),
    );
    // A join whose payload is not an object is joined with defaults: the payload is optional in Phoenix.
    expect(replies.find((r) => r[1] === '3')?.[4]).toMatchObject({ status: 'ok' });
    expect(ws.readyState).toBe(ws.OPEN);
  });

  it('survives random frames (fast-check) and keeps serving', async () => {
    const ws = await raw();
    const frame = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
      fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from([3, ...a])),
      fc
        .tuple(
          fc.oneof(fc.constant(null), fc.string({ maxLength: 5 })),
          fc.oneof(fc.constant(null), fc.string({ maxLength: 5 })),
          fc.constantFrom('realtime:public:fuzz', 'phoenix', 'realtime:online-users', 'realtime:call:x'),
          fc.constantFrom('phx_join', 'phx_leave', 'broadcast', 'presence', 'access_token', 'heartbeat', 'x'),
          fc.jsonValue({ maxDepth: 4 }),
        )
        .map((tuple) => JSON.stringify(tuple)),
    );
    const frames = fc.sample(frame, { numRuns: 150, seed: 42 });
    await sendPaced(ws, frames);
    // The same socket still answers a heartbeat, and others still talk.
    const replies = collectReplies(ws);
    ws.send(JSON.stringify([null, 'hb', 'phoenix', 'heartbeat', {}]));
    await waitFor('heartbeat reply', () => replies.find((r) => r[1] === 'hb'));
    await expectServerHealthy();
  });

  it('closes a flooding connection while others keep getting their messages fast', async () => {
    const a = (await client(alice.token)).channel('public:calm');
    const b = (await client(bob.token)).channel('public:calm');
    const latencies: number[] = [];
    b.on('broadcast', { event: 'tick' }, (m) =>
      latencies.push(Date.now() - (m['payload'] as { at: number }).at),
    );
    expect((await subscribe(a)).status).toBe('SUBSCRIBED');
    expect((await subscribe(b)).status).toBe('SUBSCRIBED');

    const flooder = await raw();
    const floodReplies = collectReplies(flooder);
    flooder.send(JSON.stringify(['f', 'f', 'realtime:public:calm', 'phx_join', {}]));
    await waitFor('flooder joined', () => floodReplies.find((r) => r[1] === 'f'));
    const floodReceived: unknown[] = [];
    b.on('broadcast', { event: 'flood' }, (m) => floodReceived.push(m));
    const closed = waitForClose(flooder);
    const frame = JSON.stringify([
      'f',
      null,
      'realtime:public:calm',
      'broadcast',
      { type: 'broadcast', event: 'flood', payload: { junk: 'x'.repeat(200) } },
    ]);
    const ticker = setInterval(
      () => void a.send({ type: 'broadcast', event: 'tick', payload: { at: Date.now() } }),
      20,
    );
    try {
      for (let i = 0; i < 1000; i++) flooder.send(frame);
      expect(await closed).toBe(1008);
      await sleep(300);
    } finally {
      clearInterval(ticker);
    }
    await waitFor('ticks arrived', () => latencies.length >= 10);
    const sorted = [...latencies].sort((x, y) => x - y);
    const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? Infinity;
    expect(p95).toBeLessThan(500);
    // At most the burst (plus what refilled meanwhile) got through before the close.
    expect(floodReceived.length).toBeLessThan(REALTIME_LIMITS.messageBurst * 2);
  });

  it('refuses joins past the channel limit of one connection', async () => {
    const ws = await raw();
    const replies = collectReplies(ws);
    const max = REALTIME_LIMITS.maxChannelsPerConnection;
    const joins = Array.from({ length: max + 1 }, (_, i) =>
      JSON.stringify([`j${i}`, `j${i}`, `realtime:public:room-${i}`, 'phx_join', {}]),
    );
    await sendPaced(ws, joins);
    await waitFor('all join replies', () => replies.length >= max + 1, 5000);
    const statuses = replies.map((r) => (r[4] as { status: string }).status);
    expect(statuses.filter((s) => s === 'ok')).toHaveLength(max);
    expect(replies.find((r) => r[1] === `j${max}`)?.[4]).toMatchObject({
      status: 'error',
      response: { reason: 'Too many channels on this connection' },
    });
  });
});
