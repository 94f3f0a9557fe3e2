// Games in SQL: only the two matched players see and act, the invitation lifecycle, one round per
// (session, number) with merging upserts, choices secret until both answered on every read path,
// static content, and on PostgreSQL two players racing to create and answer the same round.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/database.ts';
import { anonymous, asActor, member, serviceRole } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { within } from '../support/within.ts';
import { createMember, expectSqlError, makeMatch } from './support/members.ts';

interface SessionRow {
  id: string;
  player1_id: string;
  player2_id: string;
  game_type: string;
  status: string;
  current_round: number;
  completed_at: string | null;
}

interface RoundRow {
  id: string;
  session_id: string;
  round_number: number;
  question: { text: string; optionA?: string; optionB?: string };
  player1_choice: string | null;
  player2_choice: string | null;
  reactions: Record<string, string>;
}

const question = { text: 'Your perfect morning starts with...', optionA: 'Coffee', optionB: 'Tea' };

/** The same derivation as public.game_round_id, computed in Node: what a browser does with SubtleCrypto. */
function computeRoundId(sessionId: string, roundNumber: number): string {
  const input = Buffer.alloc(20);
  Buffer.from(sessionId.replace(/-/g, ''), 'hex').copy(input, 0);
  input.writeInt32BE(roundNumber, 16);
  const bytes = crypto.createHash('sha256').update(input).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The upsert a client uploads for a round it created: deterministic id, merge on conflict. */
function upsertRound(tx: Queryable, sessionId: string, roundNumber: number, q: object = question) {
  return tx.query<RoundRow>(
    `insert into public.game_rounds (id, session_id, round_number, question) values ($1, $2, $3, $4)
     on conflict (id) do update set session_id = excluded.session_id, round_number = excluded.round_number,
       question = excluded.question, player1_choice = excluded.player1_choice,
       player2_choice = excluded.player2_choice, reactions = excluded.reactions
     returning *`,
    [computeRoundId(sessionId, roundNumber), sessionId, roundNumber, JSON.stringify(q)],
  );
}

/**
 * Resolves for everyone once n callers are waiting, so their transactions overlap for real; with
 * maxWaitMs it also gives up after that long (for when one caller is rightly blocked by a lock).
 */
function createBarrier(n: number, maxWaitMs?: number): () => Promise<void> {
  let waiting = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    waiting += 1;
    if (waiting === n) release();
    if (maxWaitMs === undefined) return all;
    return Promise.race([all, new Promise<void>((resolve) => setTimeout(resolve, maxWaitMs))]);
  };
}

describe.each(getDatabaseKinds())('games on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  async function createPlayers(): Promise<{ p1: string; p2: string; s: string }> {
    const p1 = await createMember(db, { name: 'Robin' });
    const p2 = await createMember(db, { name: 'Jamie' });
    const s = await createMember(db);
    await makeMatch(db, p1, p2);
    return { p1, p2, s };
  }

  async function invite(p1: string, p2: string, gameType = 'this-or-that'): Promise<SessionRow> {
    const r = await asActor(db, member(p1), (tx) =>
      tx.query<SessionRow>(
        'insert into public.game_sessions (player1_id, player2_id, game_type) values ($1, $2, $3) returning *',
        [p1, p2, gameType],
      ),
    );
    return r.rows[0]!;
  }

  async function setSessionStatus(actor: string, id: string, status: string) {
    return asActor(db, member(actor), (tx) =>
      tx.query<SessionRow>('update public.game_sessions set status = $2 where id = $1 returning *', [
        id,
        status,
      ]),
    );
  }

  /** An active session with round 1 created by player1. */
  async function createActiveRound() {
    const { p1, p2, s } = await createPlayers();
    const session = await invite(p1, p2);
    await setSessionStatus(p2, session.id, 'active');
    const round = (await asActor(db, member(p1), (tx) => upsertRound(tx, session.id, 1))).rows[0]!;
    return { p1, p2, s, session, round };
  }

  async function answerBySlot(actor: string, roundId: string, slot: 1 | 2, choice: string) {
    return asActor(db, member(actor), (tx) =>
      tx.query<RoundRow>(
        `update public.game_rounds set player${slot}_choice = $2 where id = $1 returning *`,
        [roundId, choice],
      ),
    );
  }

  async function readRound(actor: string, roundId: string): Promise<RoundRow | undefined> {
    const r = await asActor(db, member(actor), (tx) =>
      tx.query<RoundRow>('select * from public.game_rounds where id = $1', [roundId]),
    );
    return r.rows[0];
  }

  async function readChoices(actor: string, roundId: string) {
    const r = await asActor(db, member(actor), (tx) =>
      tx.query<{ player_id: string; choice: string }>(
        'select player_id, choice from public.game_round_choices where round_id = $1 order by choice',
        [roundId],
      ),
    );
    return r.rows;
  }

  describe('sessions', () => {
    it('player1 invites a match; player2 is notified with a link to the game; both see the pending session', async () => {
      const { p1, p2 } = await createPlayers();
      const session = await invite(p1, p2);
      expect(session).toMatchObject({ player1_id: p1, player2_id: p2, status: 'pending', current_round: 0 });
      const note = await asActor(db, member(p2), (tx) =>
        tx.query<{ title: string; body: string; link: string; data: Record<string, string> }>(
          `select title, body, link, data from public.notifications where type = 'game_invitation'`,
        ),
      );
      expect(note.rows).toEqual([
        {
          title: 'New game invitation',
          body: 'Robin invited you to play This or That',
          link: `/games/${session.id}`,
          data: { sessionId: session.id, gameType: 'this-or-that', fromUserId: p1 },
        },
      ]);
      for (const id of [p1, p2]) {
        const seen = await asActor(db, member(id), (tx) => tx.query('select id from public.game_sessions'));
        expect(seen.rows).toEqual([{ id: session.id }]);
      }
    });

    it('player2 accepts (active) and player1 hears about it; either completes', async () => {
      const { p1, p2 } = await createPlayers();
      const session = await invite(p1, p2);
      const accepted = await setSessionStatus(p2, session.id, 'active');
      expect(accepted.rows[0]?.status).toBe('active');
      const note = await asActor(db, member(p1), (tx) =>
        tx.query<{ type: string }>(`select type from public.notifications where type like 'game_%'`),
      );
      expect(note.rows).toEqual([{ type: 'game_invitation_accepted' }]);
      const completed = await setSessionStatus(p1, session.id, 'completed');
      expect(completed.rows[0]?.status).toBe('completed');
      expect(completed.rows[0]?.completed_at).not.toBeNull();
      await expectSqlError(setSessionStatus(p2, session.id, 'active'), 'P0001', /game_already_finished/);
    });

    it('only player2 accepts or declines; a declined game is final', async () => {
      const { p1, p2 } = await createPlayers();
      const session = await invite(p1, p2);
      await expectSqlError(setSessionStatus(p1, session.id, 'active'), '42501');
      const declined = await setSessionStatus(p2, session.id, 'declined');
      expect(declined.rows[0]?.status).toBe('declined');
      await expectSqlError(setSessionStatus(p2, session.id, 'active'), 'P0001');
    });

    it('a game can only be started with a match, as oneself, and never with a blocked member', async () => {
      const { p1, p2, s } = await createPlayers();
      await expectSqlError(invite(p1, s), '42501');
      await expectSqlError(
        asActor(db, member(s), (tx) =>
          tx.query(
            `insert into public.game_sessions (player1_id, player2_id, game_type) values ($1, $2, 'this-or-that')`,
            [p1, p2],
          ),
        ),
        '42501',
      );
      await db.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [p2, p1]);
      await expectSqlError(invite(p1, p2), '42501');
    });

    it('a block hides the session from both players and stops their moves', async () => {
      const { p1, p2 } = await createPlayers();
      const session = await invite(p1, p2);
      await db.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [p1, p2]);
      for (const id of [p1, p2]) {
        const seen = await asActor(db, member(id), (tx) => tx.query('select id from public.game_sessions'));
        expect(seen.rows).toHaveLength(0);
      }
      const r = await setSessionStatus(p2, session.id, 'active');
      expect(r.rowCount).toBe(0);
    });

    it('a stranger and anonymous callers see and change nothing', async () => {
      const { p1, p2, s } = await createPlayers();
      const session = await invite(p1, p2);
      const seen = await asActor(db, member(s), (tx) => tx.query('select * from public.game_sessions'));
      expect(seen.rows).toHaveLength(0);
      expect((await setSessionStatus(s, session.id, 'completed')).rowCount).toBe(0);
      await expectSqlError(
        asActor(db, anonymous, (tx) => tx.query('select * from public.game_sessions')),
        '42501',
      );
      await expectSqlError(
        asActor(db, member(p1), (tx) =>
          tx.query('delete from public.game_sessions where id = $1', [session.id]),
        ),
        '42501',
      );
    });

    it('players, type and start are fixed; current_round moves forward only while active', async () => {
      const { p1, p2, s } = await createPlayers();
      const session = await invite(p1, p2);
      await expectSqlError(
        asActor(db, member(p1), (tx) =>
          tx.query('update public.game_sessions set player2_id = $2 where id = $1', [session.id, s]),
        ),
        '42501',
      );
      await expectSqlError(
        asActor(db, member(p1), (tx) =>
          tx.query('update public.game_sessions set current_round = 3 where id = $1', [session.id]),
        ),
        'P0001',
        /game_not_active/,
      );
      await setSessionStatus(p2, session.id, 'active');
      await asActor(db, member(p1), (tx) =>
        tx.query('update public.game_sessions set current_round = 2 where id = $1', [session.id]),
      );
      await expectSqlError(
        asActor(db, member(p2), (tx) =>
          tx.query('update public.game_sessions set current_round = 1 where id = $1', [session.id]),
        ),
        '23514',
      );
    });

    it('bad input is refused with a mappable SQLSTATE', async () => {
      const { p1, p2 } = await createPlayers();
      await expectSqlError(invite(p1, p2, 'poker'), '23503');
      await expectSqlError(invite(p1, p1), '42501');
      await expectSqlError(
        asActor(db, member(p1), (tx) =>
          tx.query(
            `insert into public.game_sessions (player1_id, player2_id, game_type, status) values ($1, $2, 'this-or-that', 'active')`,
            [p1, p2],
          ),
        ),
        '23514',
      );
      const session = await invite(p1, p2);
      await expectSqlError(setSessionStatus(p2, session.id, 'paused'), '23514');
    });
  });

  describe('rounds', () => {
    it('the round id is the documented derivation of (session, round_number)', async () => {
      const sessionId = crypto.randomUUID();
      for (const n of [1, 2, 100]) {
        const r = await db.query<{ id: string }>('select public.game_round_id($1, $2) id', [sessionId, n]);
        expect(r.rows[0]?.id).toBe(computeRoundId(sessionId, n));
      }
      const { session, round } = await createActiveRound();
      expect(round.id).toBe(computeRoundId(session.id, 1));
      // A client that sends no id gets the same one.
      const r = await asActor(db, member(session.player2_id), (tx) =>
        tx.query<RoundRow>(
          'insert into public.game_rounds (session_id, round_number, question) values ($1, 2, $2) returning id',
          [session.id, JSON.stringify(question)],
        ),
      );
      expect(r.rows[0]?.id).toBe(computeRoundId(session.id, 2));
    });

    it('both players creating the same round merge into one row and keep the first question', async () => {
      const { p2, session, round } = await createActiveRound();
      const second = await asActor(db, member(p2), (tx) =>
        upsertRound(tx, session.id, 1, { text: 'Another question', optionA: 'x', optionB: 'y' }),
      );
      expect(second.rows[0]).toMatchObject({ id: round.id, question });
      const rows = await db.query('select 1 from public.game_rounds where session_id = $1', [session.id]);
      expect(rows.rows).toHaveLength(1);
    });

    it('a second round with another id but the same number is refused as a duplicate (23505)', async () => {
      const { p2, session } = await createActiveRound();
      await expectSqlError(
        asActor(db, member(p2), (tx) =>
          tx.query(
            'insert into public.game_rounds (id, session_id, round_number, question) values ($1, $2, 1, $3)',
            [crypto.randomUUID(), session.id, JSON.stringify(question)],
          ),
        ),
        '23505',
      );
    });

    it('rounds are created only by the players of an active session', async () => {
      const { p1, p2, s } = await createPlayers();
      const session = await invite(p1, p2);
      await expectSqlError(
        asActor(db, member(p1), (tx) => upsertRound(tx, session.id, 1)),
        'P0001',
        /game_not_active/,
      );
      await setSessionStatus(p2, session.id, 'active');
      await expectSqlError(
        asActor(db, member(s), (tx) => upsertRound(tx, session.id, 1)),
        '42501',
      );
      await expectSqlError(
        asActor(db, anonymous, (tx) => upsertRound(tx, session.id, 1)),
        '42501',
      );
    });

    it('bad questions and round numbers are refused with 23514', async () => {
      const { p1, session } = await createActiveRound();
      for (const [n, q] of [
        [0, question],
        [101, question],
        [2, { optionA: 'a', optionB: 'b' }],
        [2, { text: '', optionA: 'a' }],
        [2, { text: 'ok', optionA: 5 }],
        [2, ['not', 'an', 'object']],
        [2, { text: 'x'.repeat(400), big: 'y'.repeat(2000) }],
      ] as const) {
        await expectSqlError(
          asActor(db, member(p1), (tx) => upsertRound(tx, session.id, n, q)),
          '23514',
        );
      }
    });

    it('a new round cannot carry choices', async () => {
      const { p1, session } = await createActiveRound();
      await expectSqlError(
        asActor(db, member(p1), (tx) =>
          tx.query(
            `insert into public.game_rounds (session_id, round_number, question, player1_choice) values ($1, 2, $2, 'A')`,
            [session.id, JSON.stringify(question)],
          ),
        ),
        '42501',
      );
    });
  });

  describe('choices', () => {
    it('a choice stays secret until both answered, then both see both (answering through the slot)', async () => {
      const { p1, p2, round } = await createActiveRound();
      const afterFirst = await answerBySlot(p1, round.id, 1, 'Coffee');
      expect(afterFirst.rows[0]).toMatchObject({ player1_choice: null, player2_choice: null });
      // Player 2 cannot learn player 1's choice by any read: the round, the choices table.
      expect(await readRound(p2, round.id)).toMatchObject({ player1_choice: null, player2_choice: null });
      expect(await readChoices(p2, round.id)).toEqual([]);
      // Player 1 sees their own answer in game_round_choices.
      expect(await readChoices(p1, round.id)).toEqual([{ player_id: p1, choice: 'Coffee' }]);

      const afterSecond = await answerBySlot(p2, round.id, 2, 'Tea');
      expect(afterSecond.rows[0]).toMatchObject({ player1_choice: 'Coffee', player2_choice: 'Tea' });
      for (const id of [p1, p2]) {
        expect(await readRound(id, round.id)).toMatchObject({
          player1_choice: 'Coffee',
          player2_choice: 'Tea',
        });
        expect(await readChoices(id, round.id)).toEqual([
          { player_id: p1, choice: 'Coffee' },
          { player_id: p2, choice: 'Tea' },
        ]);
      }
    });

    it('answering by inserting into game_round_choices reveals the same way', async () => {
      const { p1, p2, round } = await createActiveRound();
      const insertChoice = (actor: string, choice: string) =>
        asActor(db, member(actor), (tx) =>
          tx.query('insert into public.game_round_choices (round_id, choice) values ($1, $2)', [
            round.id,
            choice,
          ]),
        );
      await insertChoice(p2, 'Tea');
      expect(await readRound(p1, round.id)).toMatchObject({ player1_choice: null, player2_choice: null });
      expect(await readChoices(p1, round.id)).toEqual([]);
      await insertChoice(p1, 'Tea');
      expect(await readRound(p2, round.id)).toMatchObject({ player1_choice: 'Tea', player2_choice: 'Tea' });
    });

    it('a player writes only their own slot', async () => {
      const { p1, p2, round } = await createActiveRound();
      await expectSqlError(answerBySlot(p1, round.id, 2, 'Tea'), '42501');
      await expectSqlError(answerBySlot(p2, round.id, 1, 'Tea'), '42501');
      await expectSqlError(
        asActor(db, member(p1), (tx) =>
          tx.query(
            'insert into public.game_round_choices (round_id, player_id, choice) values ($1, $2, $3)',
            [round.id, p2, 'Tea'],
          ),
        ),
        '42501',
      );
      const stored = await db.query('select 1 from public.game_round_choices where round_id = $1', [
        round.id,
      ]);
      expect(stored.rows).toHaveLength(0);
    });

    it('an answer is final: the same answer again is a no-op, a different one is refused', async () => {
      const { p1, p2, round } = await createActiveRound();
      await answerBySlot(p1, round.id, 1, 'Coffee');
      await answerBySlot(p1, round.id, 1, 'Coffee');
      await expectSqlError(answerBySlot(p1, round.id, 1, 'Tea'), '23505', /choice_already_made/);
      await answerBySlot(p2, round.id, 2, 'Tea');
      await expectSqlError(answerBySlot(p2, round.id, 2, 'Coffee'), '23505');
      expect(await readRound(p1, round.id)).toMatchObject({
        player1_choice: 'Coffee',
        player2_choice: 'Tea',
      });
    });

    it('a stale full-row upsert never erases answers', async () => {
      const { p1, p2, session, round } = await createActiveRound();
      await answerBySlot(p1, round.id, 1, 'Coffee');
      await answerBySlot(p2, round.id, 2, 'Tea');
      await asActor(db, member(p2), (tx) => upsertRound(tx, session.id, 1));
      expect(await readRound(p1, round.id)).toMatchObject({
        player1_choice: 'Coffee',
        player2_choice: 'Tea',
      });
    });

    it('strangers neither read nor answer a round', async () => {
      const { p1, s, round } = await createActiveRound();
      await answerBySlot(p1, round.id, 1, 'Coffee');
      expect(await readRound(s, round.id)).toBeUndefined();
      expect(await readChoices(s, round.id)).toEqual([]);
      expect((await answerBySlot(s, round.id, 2, 'Tea')).rowCount).toBe(0);
      await expectSqlError(
        asActor(db, member(s), (tx) =>
          tx.query('insert into public.game_round_choices (round_id, choice) values ($1, $2)', [
            round.id,
            'Tea',
          ]),
        ),
        '42501',
      );
      await expectSqlError(
        asActor(db, anonymous, (tx) => tx.query('select * from public.game_round_choices')),
        '42501',
      );
    });

    it('no answers once the game is over', async () => {
      const { p1, p2, session, round } = await createActiveRound();
      await setSessionStatus(p1, session.id, 'completed');
      await expectSqlError(answerBySlot(p2, round.id, 2, 'Tea'), 'P0001', /game_not_active/);
    });

    it('an empty or oversized choice is refused', async () => {
      const { p1, round } = await createActiveRound();
      await expectSqlError(answerBySlot(p1, round.id, 1, ''), '23514');
      await expectSqlError(answerBySlot(p1, round.id, 1, ' \n '), '23514');
      await expectSqlError(answerBySlot(p1, round.id, 1, 'x'.repeat(201)), '23514');
    });

    it('the service role cannot reveal one choice alone', async () => {
      const { round } = await createActiveRound();
      await expectSqlError(
        asActor(db, serviceRole, (tx) =>
          tx.query(`update public.game_rounds set player1_choice = 'Coffee' where id = $1`, [round.id]),
        ),
        '23514',
      );
    });
  });

  describe('reactions', () => {
    it('each player sets only their own reaction; others are kept', async () => {
      const { p1, p2, round } = await createActiveRound();
      const set = (actor: string, reactions: object) =>
        asActor(db, member(actor), (tx) =>
          tx.query<RoundRow>(
            'update public.game_rounds set reactions = $2 where id = $1 returning reactions',
            [round.id, JSON.stringify(reactions)],
          ),
        );
      await set(p1, { [p1]: '😍' });
      // Player 2 tries to overwrite player 1's reaction while setting their own.
      const r = await set(p2, { [p1]: '💩', [p2]: '😂' });
      expect(r.rows[0]?.reactions).toEqual({ [p1]: '😍', [p2]: '😂' });
      await expectSqlError(set(p2, { [p2]: 'x'.repeat(33) }), '22023');
      await expectSqlError(set(p2, { [p2]: { nested: true } }), '22023');
    });
  });

  describe('static game content', () => {
    it('holds the spec’s content and more (0126) in its categories, readable by members only', async () => {
      const a = await createMember(db);
      const counts = await asActor(db, member(a), (tx) =>
        tx.query<Record<string, number>>(
          `select (select count(*)::int from public.this_or_that_questions) this_or_that,
                  (select count(*)::int from public.story_themes) stories,
                  (select count(distinct category)::int from public.story_themes) story_categories,
                  (select count(distinct difficulty)::int from public.story_themes) story_difficulties,
                  (select count(*)::int from public.would_you_rather_prompts) would_you_rather,
                  (select count(distinct category)::int from public.would_you_rather_prompts) wyr_categories,
                  (select count(*)::int from public.couple_quiz_questions) quiz,
                  (select count(distinct question_type)::int from public.couple_quiz_questions) quiz_types,
                  (select min(cardinality(options))::int from public.couple_quiz_questions) quiz_min_options,
                  (select count(*)::int from public.game_types) game_types`,
        ),
      );
      expect(counts.rows[0]).toEqual({
        this_or_that: 30,
        stories: 24,
        story_categories: 6,
        story_difficulties: 3,
        would_you_rather: 30,
        wyr_categories: 6,
        quiz: 25,
        quiz_types: 4,
        quiz_min_options: 5,
        game_types: 4,
      });
      const first = await asActor(db, member(a), (tx) =>
        tx.query('select text, option_a, option_b from public.this_or_that_questions where position = 1'),
      );
      expect(first.rows[0]).toEqual({ text: question.text, option_a: 'Coffee', option_b: 'Tea' });
      for (const table of [
        'this_or_that_questions',
        'story_themes',
        'would_you_rather_prompts',
        'couple_quiz_questions',
      ]) {
        await expectSqlError(
          asActor(db, anonymous, (tx) => tx.query(`select * from public.${table}`)),
          '42501',
        );
        await expectSqlError(
          asActor(db, member(a), (tx) => tx.query(`delete from public.${table}`)),
          '42501',
        );
      }
    });
  });

  describe.runIf(kind === 'postgres')('concurrency', () => {
    it('two players creating and answering the same round at the same moment leave one row with both choices', async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const { p1, p2, session } = await (async () => {
          const players = await createPlayers();
          const s = await invite(players.p1, players.p2);
          await setSessionStatus(players.p2, s.id, 'active');
          return { ...players, session: s };
        })();
        const roundId = computeRoundId(session.id, 1);
        const barrier = createBarrier(2);
        const play = (actor: string, slot: 1 | 2, choice: string) =>
          asActor(db, member(actor), async (tx) => {
            await barrier();
            await upsertRound(tx, session.id, 1);
            await tx.query(`update public.game_rounds set player${slot}_choice = $2 where id = $1`, [
              roundId,
              choice,
            ]);
          });
        await Promise.all([play(p1, 1, 'Coffee'), play(p2, 2, 'Tea')]);
        const rows = await db.query<RoundRow>('select * from public.game_rounds where session_id = $1', [
          session.id,
        ]);
        expect(rows.rows).toHaveLength(1);
        expect(rows.rows[0]).toMatchObject({ id: roundId, player1_choice: 'Coffee', player2_choice: 'Tea' });
      }
    });

    it("an answer is not held up by the other player's answer's foreign-key lock on the round", async () => {
      // The other answer's insert takes a key-share lock on the round (its foreign-key check) until it commits;
      // an answer whose trigger asked for the round FOR UPDATE waited for it, and the two could deadlock.
      const { p1, round } = await createActiveRound();
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked: () => void = () => {};
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const holder = db.transaction(async (tx) => {
        await tx.query('select 1 from public.game_rounds where id = $1 for key share', [round.id]);
        locked();
        await released;
      });
      await isLocked;
      const answer = asActor(db, member(p1), (tx) =>
        tx.query('insert into public.game_round_choices (round_id, choice) values ($1, $2)', [
          round.id,
          'Coffee',
        ]),
      );
      const outcome = await within(answer, 5000, 'held up').then(
        () => 'answered',
        (e: Error) => e.message,
      );
      release();
      await holder;
      await answer;
      expect(outcome).toBe('answered');
    });

    it('two players answering an existing round at the same moment reveal both, by either write path', async () => {
      for (const paths of [
        ['choice', 'choice'],
        ['slot', 'choice'],
        ['choice', 'slot'],
      ] as const) {
        const { p1, p2, round } = await createActiveRound();
        const before = createBarrier(2);
        // Both answers are written before either commits (or the wait gives up when the second is
        // blocked behind the first's lock, which is the correct outcome).
        const beforeCommit = createBarrier(2, 300);
        const answer = (actor: string, slot: 1 | 2, choice: string, path: 'choice' | 'slot') =>
          asActor(db, member(actor), async (tx) => {
            await before();
            if (path === 'choice') {
              await tx.query('insert into public.game_round_choices (round_id, choice) values ($1, $2)', [
                round.id,
                choice,
              ]);
            } else {
              await tx.query(`update public.game_rounds set player${slot}_choice = $2 where id = $1`, [
                round.id,
                choice,
              ]);
            }
            await beforeCommit();
          });
        await Promise.all([answer(p1, 1, 'Coffee', paths[0]), answer(p2, 2, 'Tea', paths[1])]);
        const rows = await db.query<RoundRow>('select * from public.game_rounds where id = $1', [round.id]);
        expect(rows.rows[0], paths.join('+')).toMatchObject({
          player1_choice: 'Coffee',
          player2_choice: 'Tea',
        });
      }
    });
  });
});
