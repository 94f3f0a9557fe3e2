// Presence fan-out on online-users: every member re-tracks every 10 s (spec); a refresh that changes nothing
// but lastActivity must not reach every other member, or the traffic grows with the square of those online.
import crypto from 'node:crypto';
import type WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { openRawSocket, signMemberToken, waitFor } from './realtime-support.ts';

// 200 in the measurement of decision 27; 100 here keeps the join phase (N² diffs) light beside other test files.
const MEMBERS = 100;
const TOPIC = 'realtime:online-users';

type PresenceMap = Record<string, { metas: { userId?: string; lastActivity?: number }[] }>;

interface Peer {
  id: string;
  ws: WebSocket;
  diffs: number;
  diffBytes: number;
  joinedKeys: Set<string>;
  replies: Map<string, string>;
  state?: PresenceMap;
}

describe.each(getDatabaseKinds())('presence fan-out on online-users on %s', (kind) => {
  let t: TestServer;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await t?.close();
  });

  async function connect(id: string): Promise<Peer> {
    const ws = await openRawSocket(t);
    sockets.push(ws);
    const peer: Peer = { id, ws, diffs: 0, diffBytes: 0, joinedKeys: new Set(), replies: new Map() };
    ws.on('message', (data) => {
      const text = String(data);
      const [, ref, , event, payload] = JSON.parse(text) as [
        unknown,
        string | null,
        string,
        string,
        Record<string, unknown>,
      ];
      if (event === 'phx_reply' && ref) peer.replies.set(ref, String(payload['status']));
      if (event === 'presence_state') peer.state = payload as PresenceMap;
      if (event === 'presence_diff') {
        peer.diffs++;
        peer.diffBytes += Buffer.byteLength(text);
        for (const key of Object.keys((payload as { joins: PresenceMap }).joins)) peer.joinedKeys.add(key);
      }
    });
    const token = await signMemberToken(t, id);
    ws.send(
      JSON.stringify([
        'j',
        'join',
        TOPIC,
        'phx_join',
        { config: { presence: { enabled: true } }, access_token: token },
      ]),
    );
    await waitFor(`${id} joined`, () => peer.replies.get('join') === 'ok', 20_000);
    return peer;
  }

  function track(peer: Peer, ref: string, lastActivity: number): void {
    peer.ws.send(
      JSON.stringify([
        'j',
        ref,
        TOPIC,
        'presence',
        { type: 'presence', event: 'track', payload: { userId: peer.id, lastActivity } },
      ]),
    );
  }

  it('a refresh of unchanged presence reaches nobody; newcomers still see the fresh lastActivity', async () => {
    const ids = Array.from({ length: MEMBERS + 2 }, () => crypto.randomUUID());
    await t.db.query(
      `insert into auth.users (id, email, email_confirmed_at) select id, id || '@example.test', now() from unnest($1::uuid[]) as id`,
      [ids],
    );
    const peers = await Promise.all(ids.slice(0, MEMBERS).map(connect));
    for (const p of peers) track(p, 't1', 1);
    await waitFor('every track answered', () => peers.every((p) => p.replies.has('t1')), 150_000);
    expect(peers.filter((p) => p.replies.get('t1') !== 'ok').map((p) => p.replies.get('t1'))).toEqual([]);
    await waitFor('everyone sees everyone', () => peers.every((p) => p.joinedKeys.size === MEMBERS), 150_000);

    // The refresh round: every member re-tracks with a newer lastActivity, as the app does every 10 s.
    for (const p of peers) {
      p.diffs = 0;
      p.diffBytes = 0;
      p.joinedKeys.clear();
    }
    const started = performance.now();
    for (const p of peers) track(p, 't2', 2);
    await waitFor('every refresh answered', () => peers.every((p) => p.replies.get('t2') === 'ok'), 150_000);
    // A real change after the round: once each member has it, every frame of the round has arrived too.
    const sentinel = await connect(ids[MEMBERS]!);
    track(sentinel, 't1', 3);
    await waitFor(
      'the newcomer reached everyone',
      () => peers.every((p) => p.joinedKeys.has(sentinel.id)),
      60_000,
    );
    const roundMs = performance.now() - started;
    const frames = peers.reduce((n, p) => n + p.diffs, 0) - MEMBERS; // minus the newcomer's own join
    const bytes = peers.reduce((n, p) => n + p.diffBytes, 0);
    console.log(
      `[presence fan-out ${kind}] ${MEMBERS} online, one refresh round: ${frames} presence_diff frames ` +
        `(${MEMBERS * MEMBERS} if every refresh were re-broadcast), ${(bytes / 1024).toFixed(0)} KiB in ` +
        `${roundMs.toFixed(0)} ms including the newcomer's join`,
    );
    expect(frames).toBe(0);

    // Someone joining later gets everyone's newest presence in presence_state.
    const late = await connect(ids[MEMBERS + 1]!);
    const state = await waitFor('presence_state', () => late.state);
    expect(Object.keys(state)).toHaveLength(MEMBERS + 1);
    expect(state[peers[0]!.id]?.metas).toEqual([
      expect.objectContaining({ userId: peers[0]!.id, lastActivity: 2 }),
    ]);
  }, 400_000);
});
