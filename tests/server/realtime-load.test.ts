// Bounded load on loopback: 500 members on their conversation channels, 10% chatting; nothing lost, p95 fast.
import crypto from 'node:crypto';
import type WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { openRawSocket, signMemberToken, waitFor } from './realtime-support.ts';

const MEMBERS = 500;
const CHATTING_EVERY = 10; // one member in ten sends
const ROUNDS = 20;
const ROUND_MS = 200;

describe.each(getDatabaseKinds())('realtime under load on %s', (kind) => {
  let t: TestServer;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await t?.close();
  });

  it('500 members in 250 conversations, 10% chatting: every message arrives exactly once', async () => {
    const ids = Array.from({ length: MEMBERS }, () => crypto.randomUUID());
    await t.db.query(
      `insert into auth.users (id, email, email_confirmed_at) select id, id || '@example.test', now() from unnest($1::uuid[]) as id`,
      [ids],
    );
    const pairs = Array.from({ length: MEMBERS / 2 }, (_, i) => [ids[2 * i]!, ids[2 * i + 1]!].sort());
    const { rows } = await t.db.query<{ id: string; participant1_id: string }>(
      `insert into public.conversations (participant1_id, participant2_id)
       select p1, p2 from unnest($1::uuid[], $2::uuid[]) as x(p1, p2) returning id, participant1_id`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
    // Each member is in exactly one pair, so the first participant names the conversation.
    const byFirst = new Map(rows.map((r) => [r.participant1_id, r.id]));
    const conversationOf = new Map<string, string>();
    for (const [p1, p2] of pairs) {
      conversationOf.set(p1!, byFirst.get(p1!)!);
      conversationOf.set(p2!, byFirst.get(p1!)!);
    }

    const latencies: number[] = [];
    let joined = 0;
    const opened = await Promise.all(
      ids.map(async (id) => {
        const ws = await openRawSocket(t);
        sockets.push(ws);
        const topic = `realtime:conversation:${conversationOf.get(id)}`;
        ws.on('message', (data, isBinary) => {
          if (!isBinary) {
            const [, ref, , event, payload] = JSON.parse(String(data)) as [
              unknown,
              string,
              string,
              string,
              { status: string },
            ];
            if (ref === 'join' && event === 'phx_reply' && payload.status === 'ok') joined++;
            return;
          }
          // A binary user broadcast: kind, topic/event/meta lengths, encoding, then names and the JSON payload.
          const buf = data as Buffer;
          const body = JSON.parse(buf.subarray(5 + buf[1]! + buf[2]! + buf[3]!).toString('utf8')) as {
            at: number;
          };
          latencies.push(Date.now() - body.at);
        });
        ws.send(
          JSON.stringify(['join', 'join', topic, 'phx_join', { access_token: await signMemberToken(t, id) }]),
        );
        return { ws, topic };
      }),
    );
    await waitFor('all members joined', () => joined === MEMBERS, 60_000);

    const chatters = opened.filter((_, i) => i % CHATTING_EVERY === 0);
    for (let round = 0; round < ROUNDS; round++) {
      for (const { ws, topic } of chatters) {
        const payload = {
          type: 'broadcast',
          event: 'message',
          payload: { at: Date.now(), text: 'hello there' },
        };
        ws.send(JSON.stringify(['join', null, topic, 'broadcast', payload]));
      }
      await new Promise((r) => setTimeout(r, ROUND_MS));
    }
    const expected = chatters.length * ROUNDS;
    await waitFor('every message delivered', () => latencies.length >= expected, 10_000);
    expect(latencies).toHaveLength(expected);
    // Speed is the benchmarks' business (reference/performance.md): the latency is printed, never asserted.
    const sorted = [...latencies].sort((a, b) => a - b);
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
    console.log(
      `realtime broadcast latency under load: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms`,
    );
  }, 180_000);
});
