// Games in the replica (issue 19): sessions, rounds and the member's own choices are synced rows, so a player
// invites, accepts, answers and writes a story line offline; the writes upload when back and the other
// player's screen follows through sync. The SQL decides (0013, 0062): only the two players, choices secret
// until both answered, one round per (session, number) whichever device creates it.
import { useQuery, type PowerSyncDatabase, type ReplicaQueryOptions } from '../../data/replica.tsx';
import { getGameRoundId } from '../../domain/ids.ts';
import {
  CHOICE_ROUNDS,
  isDuplicateError,
  orderContent,
  ROUND_CREATE_ATTEMPTS,
  ROUND_CREATE_DELAY_MS,
  type GameType,
  type RoundQuestion,
} from '../../domain/games.ts';
import { insertMessage } from '../messages/messages-data.ts';
import { recordGameEvent } from './game-events.ts';

export interface SessionRow {
  id: string;
  player1_id: string;
  player2_id: string;
  game_type: string;
  status: string;
  current_round: number;
  created_at: string;
  completed_at: string | null;
  other_id: string;
  other_name: string | null;
  other_photos: string | null;
  game_name: string | null;
}

export interface RoundRow {
  id: string;
  session_id: string;
  round_number: number;
  question: string;
  player1_choice: string | null;
  player2_choice: string | null;
  reactions: string | null;
  my_choice: string | null;
}

const SESSIONS_SQL = `
  select s.id, s.player1_id, s.player2_id, s.game_type, s.status, s.current_round, s.created_at, s.completed_at,
         case when s.player1_id = ?1 then s.player2_id else s.player1_id end as other_id,
         pp.name as other_name, pp.photos as other_photos, gt.name as game_name
    from game_sessions s
    left join public_profiles pp on pp.id = case when s.player1_id = ?1 then s.player2_id else s.player1_id end
    left join game_types gt on gt.id = s.game_type
   where (s.player1_id = ?1 or s.player2_id = ?1)`;

export function useGameSessions(me: string, options?: ReplicaQueryOptions) {
  return useQuery<SessionRow>(`${SESSIONS_SQL} order by s.created_at desc`, [me], options);
}

export function useGameSession(me: string, id: string) {
  return useQuery<SessionRow>(`${SESSIONS_SQL} and s.id = ?2`, [me, id]);
}

/** The rounds of a session, with the member's own answer (the slot here, or their choice row once uploaded). */
export function useRounds(me: string, sessionId: string) {
  return useQuery<RoundRow>(
    `select r.id, r.session_id, r.round_number, r.question, r.player1_choice, r.player2_choice, r.reactions,
            coalesce(case when s.player1_id = ?1 then r.player1_choice else r.player2_choice end, c.choice) as my_choice
       from game_rounds r
       join game_sessions s on s.id = r.session_id
       left join game_round_choices c on c.round_id = r.id and c.player_id = ?1
      where r.session_id = ?2
      order by r.round_number`,
    [me, sessionId],
  );
}

async function findConversationId(db: PowerSyncDatabase, a: string, b: string): Promise<string | undefined> {
  const [p1, p2] = a < b ? [a, b] : [b, a];
  const row = await db.getOptional<{ id: string }>(
    'select id from conversations where participant1_id = ? and participant2_id = ?',
    [p1, p2],
  );
  return row?.id;
}

export interface InviteInput {
  me: string;
  other: string;
  gameType: GameType;
  gameName: string;
  otherName: string;
  /** Story Builder: the theme both players write in. */
  themeId?: string;
}

/**
 * A pending session and its card in the pair's thread; works offline (both queue). The card carries the chosen
 * theme, so it is written (and uploaded, and synced to the other player) before the session, in one local
 * transaction: a device that has the session has the card too, and whoever builds the first round reads the
 * theme chosen, not the session's default. The conversation's unsent draft is left alone.
 */
export async function inviteToGame(db: PowerSyncDatabase, input: InviteInput): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  const conversationId = await findConversationId(db, input.me, input.other);
  await db.writeTransaction(async (tx) => {
    if (conversationId) {
      const metadata = {
        sessionId: id,
        gameType: input.gameType,
        gameName: input.gameName,
        ...(input.themeId ? { themeId: input.themeId } : {}),
      };
      await insertMessage(tx, {
        id: crypto.randomUUID(),
        conversationId,
        me: input.me,
        other: input.other,
        content: `Let's play ${input.gameName}!`,
        type: 'game_invite',
        metadata,
        createdAt: now,
      });
    }
    await tx.execute(
      `insert into game_sessions (id, player1_id, player2_id, game_type, status, current_round, created_at, updated_at)
       values (?, ?, ?, ?, 'pending', 0, ?, ?)`,
      [id, input.me, input.other, input.gameType, now, now],
    );
  });
  recordGameEvent({ type: 'GAME_INVITATION_SENT', sessionId: id, detail: input.gameName });
  return id;
}

/** The theme chosen at invitation (the invitation card's metadata), if this device has it. */
async function findInvitedTheme(db: PowerSyncDatabase, sessionId: string): Promise<string | undefined> {
  const row = await db.getOptional<{ theme: string | null }>(
    `select json_extract(metadata, '$.themeId') as theme from messages
      where type = 'game_invite' and json_extract(metadata, '$.sessionId') = ? limit 1`,
    [sessionId],
  );
  return row?.theme ?? undefined;
}

/** The question of round n of a session: the same on both devices (content order seeded by the session). */
export async function buildRoundQuestion(
  db: PowerSyncDatabase,
  session: Pick<SessionRow, 'id' | 'game_type'>,
  roundNumber: number,
): Promise<RoundQuestion | undefined> {
  const type = session.game_type as GameType;
  if (type === 'this-or-that') {
    const rows = await db.getAll<{ id: string; text: string; option_a: string; option_b: string }>(
      'select id, text, option_a, option_b from this_or_that_questions order by position',
    );
    const id = orderContent(
      session.id,
      rows.map((r) => r.id),
      true,
    )[roundNumber - 1];
    const q = rows.find((r) => r.id === id);
    return q && { text: q.text, optionA: q.option_a, optionB: q.option_b, contentId: q.id };
  }
  if (type === 'would-you-rather') {
    const rows = await db.getAll<{ id: string; category: string; option_a: string; option_b: string }>(
      'select id, category, option_a, option_b from would_you_rather_prompts order by position',
    );
    const id = orderContent(
      session.id,
      rows.map((r) => r.id),
    )[roundNumber - 1];
    const q = rows.find((r) => r.id === id);
    return (
      q && {
        text: 'Would you rather...',
        optionA: q.option_a,
        optionB: q.option_b,
        category: q.category,
        contentId: q.id,
      }
    );
  }
  if (type === 'couple-quiz') {
    const rows = await db.getAll<{ id: string; question: string; question_type: string; options: string }>(
      'select id, question, question_type, options from couple_quiz_questions order by position',
    );
    const id = orderContent(
      session.id,
      rows.map((r) => r.id),
    )[roundNumber - 1];
    const q = rows.find((r) => r.id === id);
    if (!q) return undefined;
    const options = JSON.parse(q.options) as string[];
    return { text: q.question, options, category: q.question_type, contentId: q.id };
  }
  if (type === 'story-builder' && roundNumber === 1) {
    const themes = await db.getAll<{ id: string; title: string; opening_line: string }>(
      'select id, title, opening_line from story_themes order by position',
    );
    const chosen = await findInvitedTheme(db, session.id);
    const seeded = orderContent(
      session.id,
      themes.map((t) => t.id),
    )[0];
    const theme = themes.find((t) => t.id === chosen) ?? themes.find((t) => t.id === seeded) ?? themes[0];
    return theme && { text: theme.opening_line, kind: 'opening', themeId: theme.id, title: theme.title };
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Creates round n if absent: up to 3 attempts 100 ms apart; a duplicate key (the other player's device made it
 * first, also offline) counts as success (spec §4). The session's current round follows.
 */
export async function ensureRound(
  db: PowerSyncDatabase,
  session: Pick<SessionRow, 'id' | 'game_type' | 'current_round'>,
  roundNumber: number,
  question?: RoundQuestion,
): Promise<void> {
  const id = getGameRoundId(session.id, roundNumber);
  let lastError: unknown;
  for (let attempt = 1; attempt <= ROUND_CREATE_ATTEMPTS; attempt++) {
    try {
      const exists = await db.getOptional('select 1 from game_rounds where id = ?', [id]);
      if (!exists) {
        const q = question ?? (await buildRoundQuestion(db, session, roundNumber));
        if (!q) throw new Error('No content for this round');
        const now = new Date().toISOString();
        await db.execute(
          `insert into game_rounds (id, session_id, round_number, question, reactions, created_at, updated_at)
           values (?, ?, ?, ?, '{}', ?, ?)`,
          [id, session.id, roundNumber, JSON.stringify(q), now, now],
        );
      }
      if (roundNumber > session.current_round)
        await db.execute('update game_sessions set current_round = ? where id = ? and current_round < ?', [
          roundNumber,
          session.id,
          roundNumber,
        ]);
      return;
    } catch (e) {
      if (isDuplicateError(e)) return;
      lastError = e;
      if (attempt < ROUND_CREATE_ATTEMPTS) await sleep(ROUND_CREATE_DELAY_MS);
    }
  }
  throw lastError instanceof Error ? lastError : new Error('Could not start the round');
}

export async function acceptInvitation(db: PowerSyncDatabase, session: SessionRow): Promise<void> {
  await db.execute(`update game_sessions set status = 'active' where id = ? and status = 'pending'`, [
    session.id,
  ]);
  recordGameEvent({ type: 'GAME_INVITATION_ACCEPTED', sessionId: session.id });
  await ensureRound(db, { ...session, status: 'active' } as SessionRow, 1);
  recordGameEvent({ type: 'GAME_STARTED', sessionId: session.id });
}

export async function declineInvitation(db: PowerSyncDatabase, session: SessionRow): Promise<void> {
  await db.execute(`update game_sessions set status = 'declined' where id = ? and status = 'pending'`, [
    session.id,
  ]);
  recordGameEvent({ type: 'GAME_INVITATION_DECLINED', sessionId: session.id });
}

/** Writes the member's own slot; the server records it and reveals both once both answered. */
export async function answerRound(
  db: PowerSyncDatabase,
  session: SessionRow,
  me: string,
  round: RoundRow,
  choice: string,
): Promise<void> {
  const column = session.player1_id === me ? 'player1_choice' : 'player2_choice';
  await db.execute(`update game_rounds set ${column} = ? where id = ?`, [choice, round.id]);
}

/** The member's reaction to a revealed round (their own key only; the server merges). */
export async function reactToRound(
  db: PowerSyncDatabase,
  me: string,
  round: RoundRow,
  reaction: string | null,
) {
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(round.reactions ?? '{}') as Record<string, unknown>;
  } catch {
    current = {};
  }
  const next = { ...current };
  if (reaction) next[me] = reaction;
  else delete next[me];
  await db.execute('update game_rounds set reactions = ? where id = ?', [JSON.stringify(next), round.id]);
}

export async function addStoryLine(
  db: PowerSyncDatabase,
  session: SessionRow,
  me: string,
  roundNumber: number,
  line: string,
) {
  await ensureRound(db, session, roundNumber, { text: line.trim(), kind: 'line', author: me });
}

export async function finishGame(db: PowerSyncDatabase, session: SessionRow, summary: string): Promise<void> {
  await db.execute(`update game_sessions set status = 'completed' where id = ? and status = 'active'`, [
    session.id,
  ]);
  recordGameEvent({ type: 'GAME_ENDED', sessionId: session.id, detail: summary });
}

export function isLastChoiceRound(roundNumber: number): boolean {
  return roundNumber >= CHOICE_ROUNDS;
}
