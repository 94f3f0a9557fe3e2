// Two-player games, pure (issue 19): the four games' rounds, how a choice is written in a player's slot, which
// content a round uses (never the same twice in one session, the same on both players' devices), scores, the
// story's turns, reactions, and the event history of the spec (at most 100 events).

export const GAME_TYPES = ['this-or-that', 'would-you-rather', 'story-builder', 'couple-quiz'] as const;
export type GameType = (typeof GAME_TYPES)[number];

export function isGameType(v: string): v is GameType {
  return (GAME_TYPES as readonly string[]).includes(v);
}

/** Rounds of a choice game; a story runs until a player finishes it (at most MAX_STORY_ROUNDS rounds). */
export const CHOICE_ROUNDS = 5;
export const MAX_STORY_ROUNDS = 40;
export const STORY_LINE_MAX = 300;
export const WHY_MAX = 120;

/** Round creation: up to 3 attempts 100 ms apart (spec §4, §9). */
export const ROUND_CREATE_ATTEMPTS = 3;
export const ROUND_CREATE_DELAY_MS = 100;

export const GAME_TEXT = {
  startedTitle: 'Game Started',
  startedBody: "Let's play!",
  declinedTitle: 'Game Declined',
  errorTitle: 'Error',
  acceptFailed: 'Failed to accept game invitation',
  declineFailed: 'Failed to decline game invitation',
  fallbackTitle: 'Game Error',
  fallbackBody: 'Something went wrong with the game. Please try again.',
} as const;

/** A duplicate key (another device made the round first) counts as success (spec §4). */
export function isDuplicateError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  const message = e instanceof Error ? e.message : String((e as { message?: unknown } | null)?.message ?? e);
  return code === '23505' || /duplicate|unique constraint/i.test(message);
}

// ---- content order ---------------------------------------------------------------------------------------

/** A small seeded generator (mulberry32) from the session id, so both devices shuffle alike. */
function seededRandom(seed: string): () => number {
  let h = 1779033703;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
  let a = (h ^ (h >>> 16)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The content ids of a session's rounds in order: every id once (no repeats inside a session), shuffled by
 * the session id; `keepFirst` keeps the first id first (This-or-That's round 1 is the spec's first question).
 */
export function orderContent(sessionId: string, ids: readonly string[], keepFirst = false): string[] {
  const rest = keepFirst ? ids.slice(1) : ids.slice();
  const random = seededRandom(sessionId);
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  return keepFirst && ids.length > 0 ? [ids[0]!, ...rest] : rest;
}

// ---- questions -------------------------------------------------------------------------------------------

export interface RoundQuestion {
  text: string;
  optionA?: string;
  optionB?: string;
  options?: string[];
  contentId?: string;
  category?: string;
  /** Story rounds: the opening of the theme, or a player's line. */
  kind?: 'opening' | 'line';
  author?: string;
  themeId?: string;
  title?: string;
}

export function parseQuestion(raw: unknown): RoundQuestion | undefined {
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const q = v as Record<string, unknown>;
  if (typeof q['text'] !== 'string') return undefined;
  const str = (k: string) => (typeof q[k] === 'string' ? { [k]: q[k] as string } : {});
  return {
    text: q['text'],
    ...str('optionA'),
    ...str('optionB'),
    ...str('contentId'),
    ...str('category'),
    ...str('author'),
    ...str('themeId'),
    ...str('title'),
    ...(q['kind'] === 'opening' || q['kind'] === 'line' ? { kind: q['kind'] } : {}),
    ...(Array.isArray(q['options'])
      ? { options: (q['options'] as unknown[]).filter((o): o is string => typeof o === 'string') }
      : {}),
  };
}

// ---- choices ---------------------------------------------------------------------------------------------

export type Pick = 'A' | 'B';

/** This-or-That: "A" or "B". Would-You-Rather: {"pick","why"}. Couple quiz: {"self","guess"} (option indexes). */
export function encodeChoice(
  type: GameType,
  value: { pick?: Pick; why?: string; self?: number; guess?: number },
): string {
  if (type === 'this-or-that') return value.pick ?? 'A';
  if (type === 'would-you-rather') {
    const why = (value.why ?? '').trim().slice(0, WHY_MAX);
    return JSON.stringify(why ? { pick: value.pick ?? 'A', why } : { pick: value.pick ?? 'A' });
  }
  if (type === 'couple-quiz') return JSON.stringify({ self: value.self ?? 0, guess: value.guess ?? 0 });
  return 'done';
}

export interface Choice {
  pick?: Pick;
  why?: string;
  self?: number;
  guess?: number;
}

export function decodeChoice(raw: string | null | undefined): Choice | undefined {
  if (!raw) return undefined;
  if (raw === 'A' || raw === 'B') return { pick: raw };
  try {
    const v = JSON.parse(raw) as Record<string, unknown>;
    if (typeof v !== 'object' || v === null) return undefined;
    return {
      ...(v['pick'] === 'A' || v['pick'] === 'B' ? { pick: v['pick'] } : {}),
      ...(typeof v['why'] === 'string' ? { why: v['why'] } : {}),
      ...(Number.isInteger(v['self']) ? { self: v['self'] as number } : {}),
      ...(Number.isInteger(v['guess']) ? { guess: v['guess'] as number } : {}),
    };
  } catch {
    return undefined;
  }
}

export interface RevealedRound {
  player1_choice: string | null;
  player2_choice: string | null;
}

/** Rounds where both picked the same option (This-or-That, Would-You-Rather). */
export function countAgreements(rounds: readonly RevealedRound[]): { same: number; of: number } {
  let same = 0;
  let of = 0;
  for (const r of rounds) {
    const a = decodeChoice(r.player1_choice);
    const b = decodeChoice(r.player2_choice);
    if (!a?.pick || !b?.pick) continue;
    of++;
    if (a.pick === b.pick) same++;
  }
  return { same, of };
}

/** Couple quiz: how many of the other's answers each player guessed right. */
export function scoreQuiz(rounds: readonly RevealedRound[]): {
  player1: number;
  player2: number;
  of: number;
} {
  let player1 = 0;
  let player2 = 0;
  let of = 0;
  for (const r of rounds) {
    const a = decodeChoice(r.player1_choice);
    const b = decodeChoice(r.player2_choice);
    if (a?.self === undefined || b?.self === undefined) continue;
    of++;
    if (a.guess === b.self) player1++;
    if (b.guess === a.self) player2++;
  }
  return { player1, player2, of };
}

export function describeQuizScore(right: number, of: number): string {
  if (of === 0) return 'No answers yet';
  const share = right / of;
  if (share === 1) return 'Perfect: you know each other by heart';
  if (share >= 0.6) return 'You know each other well';
  if (share >= 0.3) return 'Getting to know each other';
  return 'Plenty left to discover';
}

// ---- story -----------------------------------------------------------------------------------------------

/** Round 1 is the theme's opening; then the inviter (player 1) writes round 2, the other player round 3... */
export function getStoryAuthorSlot(roundNumber: number): 1 | 2 {
  return roundNumber % 2 === 0 ? 1 : 2;
}

/** The story as one text, in round order. */
export function joinStory(lines: readonly { round_number: number; text: string }[]): string {
  return [...lines]
    .sort((a, b) => a.round_number - b.round_number)
    .map((l) => l.text.trim())
    .filter(Boolean)
    .join(' ');
}

// ---- reactions -------------------------------------------------------------------------------------------

/** A revealed round's reactions: one short key per player, shown with an icon and a word. */
export const REACTIONS = [
  { key: 'love', label: 'Love it' },
  { key: 'haha', label: 'Haha' },
  { key: 'same', label: 'Same here' },
  { key: 'wow', label: 'Really?' },
] as const;
export type ReactionKey = (typeof REACTIONS)[number]['key'];

export function parseReactions(raw: unknown): Record<string, string> {
  let v = raw;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      return {};
    }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return {};
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

// ---- events ----------------------------------------------------------------------------------------------

export const GAME_EVENT_TYPES = [
  'GAME_INVITATION_SENT',
  'GAME_INVITATION_ACCEPTED',
  'GAME_INVITATION_DECLINED',
  'GAME_STARTED',
  'GAME_ENDED',
  'GAME_ROUND_COMPLETED',
  'GAME_STATE_CHANGED',
] as const;
export type GameEventType = (typeof GAME_EVENT_TYPES)[number];
export const MAX_GAME_EVENTS = 100;

export interface GameEvent {
  type: GameEventType;
  sessionId: string;
  at: number;
  detail?: string;
}

/** The history with `event` added, the oldest dropped beyond 100. */
export function addGameEvent(history: readonly GameEvent[], event: GameEvent): GameEvent[] {
  const next = [...history, event];
  return next.length > MAX_GAME_EVENTS ? next.slice(next.length - MAX_GAME_EVENTS) : next;
}

const EVENT_WORDS: Record<GameEventType, string> = {
  GAME_INVITATION_SENT: 'Invitation sent',
  GAME_INVITATION_ACCEPTED: 'Invitation accepted',
  GAME_INVITATION_DECLINED: 'Invitation declined',
  GAME_STARTED: 'Game started',
  GAME_ENDED: 'Game finished',
  GAME_ROUND_COMPLETED: 'Round complete',
  GAME_STATE_CHANGED: 'Game updated',
};

export function describeGameEvent(e: GameEvent): string {
  return e.detail ? `${EVENT_WORDS[e.type]}: ${e.detail}` : EVENT_WORDS[e.type];
}

export const GAME_STATUS_WORDS: Record<string, string> = {
  pending: 'Invitation sent',
  active: 'In progress',
  declined: 'Declined',
  completed: 'Finished',
};
