// Access-matrix entries for the premium tables (agents, Lovy, calls, games, game content).
// Same shape as coreMatrix (documented at the top of access-matrix.ts); the shared runner and coverage
// test pick them up. Nobody in the shared matrix world is premium, and the shared runner does not seed
// before an insert, so entries whose insert needs premium or a parent row (a round needs a session)
// also carry `insertSetup`: tests/sql/premium-matrix.test.ts tries those inserts after that setup.
import type { Queryable } from '../../../server/db/database.ts';
import type { MatrixActor, MatrixEntry, MatrixWorld, MemberActor } from './access-matrix.ts';

export interface InsertSetup {
  /** Runs as the superuser in the cell's transaction; its result is handed to row(). */
  prepare: (tx: Queryable, world: MatrixWorld) => Promise<string>;
  row: (
    world: MatrixWorld,
    actor: MatrixActor,
    actorId: string | undefined,
    prepared: string,
  ) => Record<string, unknown>;
  /** Actors whose insert succeeds after prepare. */
  allowed: readonly MatrixActor[];
}

export interface PremiumMatrixEntry extends MatrixEntry {
  insertSetup?: InsertSetup;
}

const MEMBERS: readonly MemberActor[] = ['owner', 'match', 'liked_by', 'stranger', 'blocked'];
const PAIR: readonly MatrixActor[] = ['owner', 'match'];
const OWNER: readonly MatrixActor[] = ['owner'];
const NOBODY: readonly MatrixActor[] = [];

const question = { text: 'Your perfect morning starts with...', optionA: 'Coffee', optionB: 'Tea' };

async function insertReturningId(tx: Queryable, sql: string, params: unknown[]): Promise<string> {
  const r = await tx.query<{ id: string }>(sql, params);
  const id = r.rows[0]?.id;
  if (!id) throw new Error(`matrix seed inserted nothing: ${sql}`);
  return id;
}

/** Paid, current subscriptions for the given members (superuser, test setup). */
export async function grantMatrixPremium(tx: Queryable, ids: string[]): Promise<void> {
  for (const id of ids) {
    await tx.query(
      `insert into public.subscriptions (user_id, plan_id, billing_cycle, status, current_period_end, stripe_customer_id)
       values ($1, 'premium', 'monthly', 'active', now() + interval '30 days', 'cus_matrix')
       on conflict (user_id) do update set status = 'active', current_period_end = excluded.current_period_end,
         stripe_customer_id = excluded.stripe_customer_id`,
      [id],
    );
  }
}

/** An accepted game between owner and match (invited by owner). */
async function seedActiveSession(tx: Queryable, world: MatrixWorld): Promise<string> {
  const id = await insertReturningId(
    tx,
    `insert into public.game_sessions (player1_id, player2_id, game_type) values ($1, $2, 'this-or-that') returning id`,
    [world.ids.owner, world.ids.match],
  );
  await tx.query(`update public.game_sessions set status = 'active' where id = $1`, [id]);
  return id;
}

async function seedRound(tx: Queryable, world: MatrixWorld): Promise<string> {
  const sessionId = await seedActiveSession(tx, world);
  return insertReturningId(
    tx,
    `insert into public.game_rounds (session_id, round_number, question) values ($1, 1, $2) returning id`,
    [sessionId, JSON.stringify(question)],
  );
}

/** Static content: every member reads it, nobody writes it through the API. */
function staticContentEntry(
  table: string,
  existingId: string,
  insert: Record<string, unknown>,
): PremiumMatrixEntry {
  return {
    table,
    seed: async () => ({ column: 'id', value: existingId }),
    insert: () => insert,
    update: { column: 'id', value: () => `${existingId}-changed` },
    allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
    note: 'Seed data from the migrations; members read it, only migrations write it.',
  };
}

export const premiumMatrix: PremiumMatrixEntry[] = [
  {
    table: 'ai_agents',
    seed: async (tx, world) => ({
      column: 'id',
      value: await insertReturningId(
        tx,
        `insert into public.ai_agents (user_id, name) values ($1, 'Cupid') returning id`,
        [world.ids.owner],
      ),
    }),
    insert: (world) => ({ user_id: world.ids.owner, name: 'Forged agent' }),
    update: { column: 'name', value: () => 'Renamed' },
    allowed: { select: OWNER, insert: OWNER, update: OWNER, delete: OWNER },
    note: 'Members read, create, edit and delete only their own agents.',
  },
  {
    table: 'wingman_settings',
    seed: async (tx, world) => ({
      column: 'id',
      value: await insertReturningId(
        tx,
        'insert into public.wingman_settings (id, paused) values ($1, true) returning id',
        [world.ids.owner],
      ),
    }),
    insert: (world) => ({ id: world.ids.owner, paused: true }),
    update: { column: 'daily_like_cap', value: () => 3 },
    allowed: { select: OWNER, insert: OWNER, update: OWNER, delete: OWNER },
    note: 'A member’s Wingman switches (0123): their own row only, even the opt-out other agents obey.',
  },
  {
    table: 'agent_activity',
    seed: async (tx, world) => ({
      column: 'id',
      value: await insertReturningId(
        tx,
        `insert into public.agent_activity (user_id, kind, target_id, reason) values ($1, 'like', $2, 'Seeded')
         returning id`,
        [world.ids.owner, world.ids.stranger],
      ),
    }),
    insert: (world) => ({ user_id: world.ids.owner, kind: 'like', reason: 'Forged' }),
    update: { column: 'status', value: () => 'undone' },
    allowed: { select: OWNER, insert: NOBODY, update: NOBODY, delete: NOBODY },
    note: 'The Wingman log (0123): the member reads it; only the job and undo_agent_action write it.',
  },
  {
    table: 'agent_drafts',
    seed: async (tx, world) => ({
      column: 'id',
      value: await insertReturningId(
        tx,
        `insert into public.agent_drafts (user_id, conversation_id, recipient_id, content) values ($1, $2, $3, 'Hi!')
         returning id`,
        [world.ids.owner, world.conversationId, world.ids.match],
      ),
    }),
    insert: (world) => ({
      user_id: world.ids.owner,
      conversation_id: world.conversationId,
      recipient_id: world.ids.match,
      content: 'Forged draft',
    }),
    update: { column: 'status', value: () => 'discarded' },
    allowed: { select: OWNER, insert: NOBODY, update: OWNER, delete: NOBODY },
    note: 'Wingman drafts (0123): the job writes them; the member reads theirs and only moves the status.',
  },
  {
    table: 'agent_feedback',
    seed: async (tx, world) => ({
      column: 'id',
      value: await insertReturningId(
        tx,
        `insert into public.agent_feedback (user_id, subject, subject_ref, rating) values ($1, 'starter', 'hiking', 'down')
         returning id`,
        [world.ids.owner],
      ),
    }),
    insert: (world) => ({ user_id: world.ids.owner, subject: 'starter', subject_ref: 'jazz', rating: 'up' }),
    update: { column: 'rating', value: () => 'up' },
    allowed: { select: OWNER, insert: OWNER, update: OWNER, delete: OWNER },
    note: 'A member’s thumbs on their Wingman’s drafts and starters (0123): their own only.',
  },
  {
    table: 'lovy_messages',
    seed: async (tx, world) => ({
      column: 'id',
      value: await insertReturningId(
        tx,
        `insert into public.lovy_messages (user_id, role, content) values ($1, 'user', 'How do I start a chat?') returning id`,
        [world.ids.owner],
      ),
    }),
    insert: (world) => ({ user_id: world.ids.owner, role: 'user', content: 'hello' }),
    update: { column: 'content', value: () => 'rewritten' },
    allowed: { select: OWNER, insert: OWNER, update: NOBODY, delete: OWNER },
    note: 'Own history only; never edited; assistant rows come from the service role.',
  },
  {
    table: 'ai_usage',
    seed: async (tx, world) => ({
      column: 'id',
      value: await insertReturningId(
        tx,
        `insert into public.ai_usage (user_id, provider, outcome) values ($1, 'coach', 'answered') returning id`,
        [world.ids.owner],
      ),
    }),
    insert: (world) => ({ user_id: world.ids.owner, provider: 'coach' }),
    update: { column: 'outcome', value: () => 'failed' },
    allowed: { select: OWNER, insert: NOBODY, update: NOBODY, delete: NOBODY },
    note: 'What answering Lovy questions cost, without text (0121): the member reads their own; the service role writes.',
  },
  {
    table: 'video_calls',
    seed: async (tx, world) => {
      await grantMatrixPremium(tx, [world.ids.owner, world.ids.match]);
      return {
        column: 'id',
        value: await insertReturningId(
          tx,
          'insert into public.video_calls (caller_id, recipient_id) values ($1, $2) returning id',
          [world.ids.owner, world.ids.match],
        ),
      };
    },
    insert: (world, actor, actorId) =>
      actor === 'owner' || !actorId
        ? { caller_id: world.ids.owner, recipient_id: world.ids.match }
        : { caller_id: actorId, recipient_id: world.ids.owner },
    update: { column: 'status', value: () => 'ended' },
    allowed: { select: PAIR, insert: NOBODY, update: PAIR, delete: NOBODY },
    deniedCodes: ['42501', 'P0001'],
    note: 'A ringing call of owner to match. Nobody is premium in the shared world, so no insert succeeds there; premium-matrix.test.ts tries them with everyone premium.',
    insertSetup: {
      prepare: async (tx, world) => {
        await grantMatrixPremium(tx, Object.values(world.ids));
        return '';
      },
      row: (world, actor, actorId) =>
        actor === 'owner' || !actorId
          ? { caller_id: world.ids.owner, recipient_id: world.ids.match }
          : { caller_id: actorId, recipient_id: world.ids.owner },
      allowed: PAIR,
    },
  },
  {
    table: 'game_sessions',
    seed: async (tx, world) => ({
      column: 'id',
      value: await insertReturningId(
        tx,
        `insert into public.game_sessions (player1_id, player2_id, game_type) values ($1, $2, 'this-or-that') returning id`,
        [world.ids.owner, world.ids.match],
      ),
    }),
    insert: (world, actor, actorId) =>
      actor === 'owner' || !actorId
        ? { player1_id: world.ids.owner, player2_id: world.ids.match, game_type: 'would-you-rather' }
        : { player1_id: actorId, player2_id: world.ids.owner, game_type: 'would-you-rather' },
    update: { column: 'status', value: () => 'completed' },
    allowed: { select: PAIR, insert: PAIR, update: PAIR, delete: NOBODY },
    note: 'An invitation of owner to match; a player invites only a connected match; either player ends it.',
  },
  {
    table: 'game_rounds',
    seed: async (tx, world) => ({ column: 'id', value: await seedRound(tx, world) }),
    insert: (world) => ({ session_id: world.matchId, round_number: 1, question: question }),
    update: { column: 'reactions', value: () => ({}) },
    allowed: { select: PAIR, insert: NOBODY, update: PAIR, delete: NOBODY },
    note: 'Round 1 of an active owner-match game. The shared runner has no session to insert into (refused for all); premium-matrix.test.ts inserts into a seeded session.',
    insertSetup: {
      prepare: seedActiveSession,
      row: (_world, _actor, _actorId, sessionId) => ({ session_id: sessionId, round_number: 1, question }),
      allowed: PAIR,
    },
  },
  {
    table: 'game_round_choices',
    seed: async (tx, world) => {
      const roundId = await seedRound(tx, world);
      return {
        column: 'id',
        value: await insertReturningId(
          tx,
          `insert into public.game_round_choices (round_id, player_id, choice) values ($1, $2, 'Coffee') returning id`,
          [roundId, world.ids.owner],
        ),
      };
    },
    insert: (world, _actor, actorId) => ({
      round_id: world.matchId,
      player_id: actorId ?? world.ids.owner,
      choice: 'Tea',
    }),
    update: { column: 'choice', value: () => 'Tea' },
    allowed: { select: OWNER, insert: NOBODY, update: NOBODY, delete: NOBODY },
    note: 'The owner answered, the match not yet: the match cannot read it. Answers are final. Inserts are tried in premium-matrix.test.ts on a seeded round (each player answers for themselves).',
    insertSetup: {
      prepare: seedRound,
      row: (world, _actor, actorId, roundId) => ({
        round_id: roundId,
        player_id: actorId ?? world.ids.owner,
        choice: 'Tea',
      }),
      allowed: PAIR,
    },
  },
  {
    table: 'game_types',
    seed: async () => ({ column: 'id', value: 'this-or-that' }),
    insert: () => ({ id: 'poker', name: 'Poker', description: 'Cards', sort_order: 9 }),
    update: { column: 'name', value: () => 'Renamed' },
    allowed: { select: MEMBERS, insert: NOBODY, update: NOBODY, delete: NOBODY },
    note: 'Seed data from the migrations; members read it, only migrations write it.',
  },
  staticContentEntry('this_or_that_questions', 'coffee-or-tea', {
    id: 'forged',
    position: 99,
    text: 'x',
    option_a: 'a',
    option_b: 'b',
  }),
  staticContentEntry('story_themes', 'first-date-in-paris', {
    id: 'forged',
    position: 99,
    title: 'x',
    description: 'x',
    opening_line: 'x',
    category: 'daily',
    difficulty: 'easy',
  }),
  staticContentEntry('would_you_rather_prompts', 'fly-or-invisible', {
    id: 'forged',
    position: 99,
    category: 'food',
    option_a: 'a',
    option_b: 'b',
  }),
  staticContentEntry('couple_quiz_questions', 'partner-comfort-food', {
    id: 'forged',
    position: 99,
    question_type: 'future',
    question: 'x',
    options: ['a', 'b', 'c', 'd', 'e'],
  }),
];
