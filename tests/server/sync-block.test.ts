// A block and an unmatch reach the members' replicas (real @powersync/node clients, real rules and
// server): the pair's match, conversation, messages, calls, games, rounds and own round answers leave
// both replicas, a block also takes each member's card off the other's, and a third member's rows stay
// where they were. A rematch brings the pair's calls and games back.
import crypto from 'node:crypto';
import { Schema, Table, column } from '@powersync/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asActor, member } from '../support/as-role.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { addInteraction, createMember, grantPremium, makeMatch } from '../sql/support/members.ts';
import { signMemberToken } from './realtime-support.ts';
import { openSyncClient, waitFor, type SyncClient } from './sync-support.ts';

const schema = new Schema({
  public_profiles: new Table({ name: column.text }),
  user_interactions: new Table({
    user_id: column.text,
    target_id: column.text,
    interaction_type: column.text,
  }),
  matches: new Table({ user_id_1: column.text, user_id_2: column.text }),
  conversations: new Table({
    participant1_id: column.text,
    participant2_id: column.text,
    match_id: column.text,
  }),
  messages: new Table({ conversation_id: column.text, sender_id: column.text, content: column.text }),
  video_calls: new Table({ caller_id: column.text, recipient_id: column.text, status: column.text }),
  game_sessions: new Table({ player1_id: column.text, player2_id: column.text, status: column.text }),
  game_rounds: new Table({ session_id: column.text, round_number: column.integer }),
  game_round_choices: new Table({ round_id: column.text, player_id: column.text, choice: column.text }),
});

const tables = [
  'public_profiles',
  'user_interactions',
  'matches',
  'conversations',
  'messages',
  'video_calls',
  'game_sessions',
  'game_rounds',
  'game_round_choices',
] as const;
type Replica = Record<(typeof tables)[number], string[]>;

describe.each(getDatabaseKinds())('blocks and unmatches on replicas on %s', (kind) => {
  let t: TestServer;
  let alice: string;
  let bob: string;
  let carol: string;
  let dave: string;
  interface Pair {
    matchId: string;
    conversationId: string;
    messageId: string;
    /** The call's ring, written into the thread by the call's own trigger (0124). */
    callMessageId: string;
    callId: string;
    sessionId: string;
    roundId: string;
    /** Each member's own answer to the round, by member id. */
    choiceIds: Record<string, string>;
  }
  const pairs: Record<string, Pair> = {};
  const clients: Record<string, SyncClient> = {};

  const token = (sub: string) => signMemberToken(t, sub);

  async function readReplica(c: SyncClient): Promise<Replica> {
    const out = {} as Replica;
    for (const table of tables) {
      out[table] = (await c.db.getAll<{ id: string }>(`select id from ${table} order by id`)).map(
        (r) => r.id,
      );
    }
    return out;
  }
  /** Waits until the replica settles on the expected rows (every table compared, sorted). */
  async function expectReplica(c: SyncClient, expected: Replica) {
    const sorted = (r: Replica) => JSON.stringify(tables.map((n) => [...r[n]].sort()));
    await waitFor(
      () => readReplica(c),
      (r) => sorted(r) === sorted(expected),
      15_000,
      20,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; expected ${sorted(expected)}`);
    });
  }
  /** The replica a member should hold: the given pairs' rows, the given cards, and every interaction id the server keeps for them. */
  async function expectedReplica(sub: string, pairKeys: string[], cards: string[]): Promise<Replica> {
    const likes = await t.db.query<{ id: string }>(
      `select id::text as id from public.user_interactions
       where user_id = $1 or (target_id = $1 and interaction_type = 'like')`,
      [sub],
    );
    const ps = pairKeys.map((k) => pairs[k]).filter((p) => p !== undefined);
    // The pair's text, and the call's steps the call's own trigger wrote into the thread (0124): its ring,
    // and its end when an unmatch ended it.
    const messages = await t.db.query<{ id: string }>(
      'select id::text as id from public.messages where conversation_id = any($1::uuid[])',
      [ps.map((p) => p.conversationId)],
    );
    for (const p of ps)
      expect(messages.rows.map((r) => r.id)).toEqual(expect.arrayContaining([p.messageId, p.callMessageId]));
    return {
      public_profiles: [sub, ...cards],
      user_interactions: likes.rows.map((r) => r.id),
      matches: ps.map((p) => p.matchId),
      conversations: ps.map((p) => p.conversationId),
      messages: messages.rows.map((r) => r.id),
      video_calls: ps.map((p) => p.callId),
      game_sessions: ps.map((p) => p.sessionId),
      game_rounds: ps.map((p) => p.roundId),
      // Only the member's own answer syncs to them (the other's is revealed on the round).
      game_round_choices: ps.map((p) => p.choiceIds[sub] ?? 'missing'),
    };
  }

  /** A match with a message, a call (a to b), and a game b invited a to with one round both answered. */
  async function matchWithMessage(key: string, a: string, b: string) {
    const m = await makeMatch(t.db, a, b);
    const messageId = crypto.randomUUID();
    await asActor(t.db, member(a), (tx) =>
      tx.query(
        `insert into public.messages (id, conversation_id, sender_id, recipient_id, content) values ($1, $2, $3, $4, 'hello')`,
        [messageId, m.conversationId, a, b],
      ),
    );
    const callId = await asActor(t.db, member(a), async (tx) => {
      const r = await tx.query<{ id: string }>(
        'insert into public.video_calls (caller_id, recipient_id) values ($1, $2) returning id',
        [a, b],
      );
      return r.rows[0]!.id;
    });
    // b invites (player1), a accepts: the direction differs from the call's, both must follow the pair.
    const sessionId = await asActor(t.db, member(b), async (tx) => {
      const r = await tx.query<{ id: string }>(
        `insert into public.game_sessions (player1_id, player2_id, game_type) values ($1, $2, 'this-or-that') returning id`,
        [b, a],
      );
      return r.rows[0]!.id;
    });
    await asActor(t.db, member(a), (tx) =>
      tx.query(`update public.game_sessions set status = 'active' where id = $1`, [sessionId]),
    );
    const roundId = await asActor(t.db, member(b), async (tx) => {
      const r = await tx.query<{ id: string }>(
        `insert into public.game_rounds (session_id, round_number, question) values ($1, 1, $2::jsonb) returning id`,
        [sessionId, JSON.stringify({ text: 'Tea or coffee?', optionA: 'Tea', optionB: 'Coffee' })],
      );
      return r.rows[0]!.id;
    });
    await asActor(t.db, member(b), (tx) =>
      tx.query(`update public.game_rounds set player1_choice = 'Tea' where id = $1`, [roundId]),
    );
    await asActor(t.db, member(a), (tx) =>
      tx.query(`update public.game_rounds set player2_choice = 'Coffee' where id = $1`, [roundId]),
    );
    const choices = await t.db.query<{ id: string; player_id: string }>(
      'select id::text as id, player_id::text as player_id from public.game_round_choices where round_id = $1',
      [roundId],
    );
    expect(choices.rows).toHaveLength(2);
    const choiceIds = Object.fromEntries(choices.rows.map((r) => [r.player_id, r.id]));
    const ring = await t.db.query<{ id: string }>(
      `select id::text as id from public.messages where type = 'video_call_ring' and metadata ->> 'callId' = $1`,
      [callId],
    );
    expect(ring.rows).toHaveLength(1);
    const callMessageId = ring.rows[0]!.id;
    pairs[key] = { ...m, messageId, callMessageId, callId, sessionId, roundId, choiceIds };
  }

  beforeAll(async () => {
    t = await startTestServer(kind);
    alice = await createMember(t.db, { name: 'Alice' });
    bob = await createMember(t.db, { name: 'Bob' });
    carol = await createMember(t.db, { name: 'Carol' });
    dave = await createMember(t.db, { name: 'Dave' });
    // Calls are between premium members.
    for (const m of [alice, bob, carol, dave]) await grantPremium(t.db, m);
    await matchWithMessage('alice-bob', alice, bob);
    await matchWithMessage('alice-carol', alice, carol);
    await matchWithMessage('bob-dave', bob, dave);
    for (const [name, sub] of [
      ['alice', alice],
      ['bob', bob],
      ['carol', carol],
      ['dave', dave],
    ] as const) {
      clients[name] = await openSyncClient(t, schema, () => token(sub));
    }
    for (const c of Object.values(clients)) await c.db.waitForFirstSync();
  });

  afterAll(async () => {
    for (const c of Object.values(clients)) await c.close();
    await t?.close();
  });

  const client = (name: string) => {
    const c = clients[name];
    if (!c) throw new Error(`no client ${name}`);
    return c;
  };

  it('before: each member holds their matches, conversations, messages and matched cards', async () => {
    await expectReplica(
      client('alice'),
      await expectedReplica(alice, ['alice-bob', 'alice-carol'], [bob, carol]),
    );
    await expectReplica(client('bob'), await expectedReplica(bob, ['alice-bob', 'bob-dave'], [alice, dave]));
    await expectReplica(client('carol'), await expectedReplica(carol, ['alice-carol'], [alice]));
    // The rows really are there (not just an empty expectation meeting an empty replica).
    const bobs = await readReplica(client('bob'));
    expect(bobs.messages).toContain(pairs['alice-bob']?.messageId);
    expect(bobs.user_interactions).toHaveLength(4);
    expect(bobs.video_calls).toContain(pairs['alice-bob']?.callId);
    expect(bobs.game_rounds).toContain(pairs['alice-bob']?.roundId);
    expect(bobs.game_round_choices).toContain(pairs['alice-bob']?.choiceIds[bob]);
    expect(bobs.game_round_choices).not.toContain(pairs['alice-bob']?.choiceIds[alice]);
  });

  it("a block removes the pair's match, cards, likes, conversation and messages from both replicas only", async () => {
    await asActor(t.db, member(bob), (tx) =>
      tx.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [bob, alice]),
    );
    await expectReplica(client('alice'), await expectedReplica(alice, ['alice-carol'], [carol]));
    await expectReplica(client('bob'), await expectedReplica(bob, ['bob-dave'], [dave]));
    for (const name of ['alice', 'bob']) {
      const r = await readReplica(client(name));
      expect(r.messages).not.toContain(pairs['alice-bob']?.messageId);
      expect(r.conversations).not.toContain(pairs['alice-bob']?.conversationId);
      expect(r.video_calls).not.toContain(pairs['alice-bob']?.callId);
      expect(r.game_sessions).not.toContain(pairs['alice-bob']?.sessionId);
      expect(r.game_rounds).not.toContain(pairs['alice-bob']?.roundId);
    }
    expect((await readReplica(client('alice'))).public_profiles).not.toContain(bob);
    expect((await readReplica(client('bob'))).public_profiles).not.toContain(alice);
    // Third members keep everything.
    await expectReplica(client('carol'), await expectedReplica(carol, ['alice-carol'], [alice]));
    await expectReplica(client('dave'), await expectedReplica(dave, ['bob-dave'], [bob]));
    // The history stays on the server (export, moderation), only without a match.
    const kept = await t.db.query('select match_id from public.conversations where id = $1', [
      pairs['alice-bob']?.conversationId,
    ]);
    expect(kept.rows).toEqual([{ match_id: null }]);
  });

  it('an unmatch removes the match, conversation and messages from both replicas only', async () => {
    await asActor(t.db, member(carol), (tx) =>
      tx.query('delete from public.matches where id = $1', [pairs['alice-carol']?.matchId]),
    );
    // The likes stay (so the pair is not offered again), and with them each other's card.
    await expectReplica(client('alice'), await expectedReplica(alice, [], [carol]));
    await expectReplica(client('carol'), await expectedReplica(carol, [], [alice]));
    await expectReplica(client('dave'), await expectedReplica(dave, ['bob-dave'], [bob]));
    await expectReplica(client('bob'), await expectedReplica(bob, ['bob-dave'], [dave]));
    expect((await readReplica(client('carol'))).messages).toEqual([]);
    expect((await readReplica(client('carol'))).game_round_choices).toEqual([]);
  });

  it("a rematch brings the pair's conversation, calls and games back to both replicas", async () => {
    // The likes survived the unmatch; a rematch is a new mutual like (the old ones are kept).
    await t.db.query('delete from public.user_interactions where user_id = $1 and target_id = $2', [
      carol,
      alice,
    ]);
    await addInteraction(t.db, carol, alice);
    const { rows } = await t.db.query<{ id: string }>(
      'select id::text as id from public.matches where user_id_1 = least($1::uuid, $2::uuid) and user_id_2 = greatest($1::uuid, $2::uuid)',
      [alice, carol],
    );
    const before = pairs['alice-carol']!;
    pairs['alice-carol'] = { ...before, matchId: rows[0]!.id };
    await expectReplica(client('alice'), await expectedReplica(alice, ['alice-carol'], [carol]));
    await expectReplica(client('carol'), await expectedReplica(carol, ['alice-carol'], [alice]));
  });

  it('a second unmatch takes them off again', async () => {
    await asActor(t.db, member(alice), (tx) =>
      tx.query('delete from public.matches where id = $1', [pairs['alice-carol']?.matchId]),
    );
    await expectReplica(client('alice'), await expectedReplica(alice, [], [carol]));
    await expectReplica(client('carol'), await expectedReplica(carol, [], [alice]));
  });

  it('a report removes the pair from both replicas like a block', async () => {
    await asActor(t.db, member(dave), (tx) =>
      tx.query(`insert into public.reports (reporter_id, reported_id, category) values ($1, $2, 'spam')`, [
        dave,
        bob,
      ]),
    );
    await expectReplica(client('bob'), await expectedReplica(bob, [], []));
    await expectReplica(client('dave'), await expectedReplica(dave, [], []));
    await expectReplica(client('carol'), await expectedReplica(carol, [], [alice]));
  });
});
