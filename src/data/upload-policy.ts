// What the upload queue does with each server answer: applied, refused (dropped and shown) or retried with backoff.

/** The error shape supabase-js gives back: a PostgrestError plus the HTTP status (0 when the request never got an answer). */
export interface UploadError {
  code?: string | undefined;
  message?: string | undefined;
  details?: string | null | undefined;
  hint?: string | null | undefined;
  status?: number | undefined;
}

export type UploadOutcome =
  /** The server already holds the row (23505): count the write as done. */
  | 'applied'
  /** The server will never accept this write: drop it from the queue and tell the member. */
  | 'refused'
  /** Transient (offline, 5xx, rate limit, expired token): keep it queued and retry later. */
  | 'retry';

/** PostgREST's answers about the token itself (expired, not accepted): renew the session and retry. */
export const AUTH_RETRY_CODES: ReadonlySet<string> = new Set(['PGRST301', 'PGRST302', 'PGRST303']);
/** SQLSTATEs that mean "this write is not allowed or not valid", whatever the retry. */
const REFUSED_SQLSTATES = new Set(['42501', '23514', '22P02', 'P0001', '23503', '23502', '22001', '22023']);
/** SQLSTATE classes that are transient on the server's side (serialization, resources, shutdown, connection). */
const TRANSIENT_SQLSTATE_CLASSES = ['40', '53', '57', '08'];

export const RETRY_FIRST_DELAY_MS = 1000;
export const RETRY_MAX_DELAY_MS = 30_000;

/** Decides the fate of a failed upload of one CRUD entry. */
export function classifyUploadError(error: UploadError): UploadOutcome {
  const code = error.code ?? '';
  const status = error.status ?? 0;
  if (code === '23505') return 'applied';
  // Credentials, not the write, were refused: an expired token (PGRST303), or one not accepted (PGRST301: a
  // session ended elsewhere, a token issued before a key change). The session is renewed before the next
  // attempt; if it cannot be, the member is signed out. Dropping the write would lose what the member typed.
  if (AUTH_RETRY_CODES.has(code)) return 'retry';
  // Refused as anon (PostgREST answers 42501 with 401 to anon, 403 to a member): the request went without a
  // member's token, as it does in the moment a device is signed out, so it says nothing about the write. It
  // waits for the member (kept for them alone, decision 0114) instead of being dropped.
  if (code === '42501' && status === 401) return 'retry';
  if (REFUSED_SQLSTATES.has(code)) return 'refused';
  if (TRANSIENT_SQLSTATE_CLASSES.some((c) => code.startsWith(c)) && code.length === 5) return 'retry';
  // No HTTP answer at all (fetch failed, offline, CORS, aborted) is a network problem.
  if (status === 0 || status === 408 || status === 429 || status >= 500) return 'retry';
  if (status >= 400) return 'refused';
  return 'retry';
}

/** Backoff before retry number `attempt` (0-based): 1 s, 2 s, 4 s ... capped at 30 s. */
export function getRetryDelayMs(attempt: number): number {
  if (!Number.isFinite(attempt) || attempt <= 0) return RETRY_FIRST_DELAY_MS;
  return Math.min(RETRY_MAX_DELAY_MS, RETRY_FIRST_DELAY_MS * 2 ** Math.min(attempt, 15));
}

const TABLE_WORDS: Record<string, string> = {
  messages: 'your message',
  user_interactions: 'your like',
  profiles: 'your profile change',
  match_preferences: 'your match preferences',
  profile_answers: 'your answer',
  ai_agents: 'your agent change',
  lovy_messages: 'your message to Lovy',
  wingman_settings: 'your Wingman settings',
  agent_drafts: 'your answer to a Wingman draft',
  agent_feedback: 'your feedback to your Wingman',
  notifications: 'your notification change',
  blocked_users: 'your block',
  game_sessions: 'your game',
  game_rounds: 'your game round',
  game_round_choices: 'your game answer',
  video_calls: 'your call',
  conversations: 'your conversation change',
  matches: 'your match change',
};

/** The error keys our SQL raises (decision 12), in the member's words. */
const ERROR_KEY_WORDS: Record<string, string> = {
  premium_required: 'This needs a premium plan.',
  daily_like_limit_reached: 'You have used all your likes for today.',
  message_rate_limited: 'You are sending messages too fast. Please wait a moment.',
  new_conversation_rate_limited: 'You are starting conversations too fast. Please wait a moment.',
  not_connected: 'You are no longer connected with this member.',
  agent_limit_reached: 'You have reached the number of agents your plan allows.',
  agent_not_found: 'This agent no longer exists.',
  game_not_active: 'This game is no longer active.',
  game_already_finished: 'This game has already finished.',
  choice_already_made: 'You already answered this round.',
  call_already_finished: 'This call has already ended.',
};

/** Plain words for the member when a write of theirs was refused and dropped. */
export function describeRefusal(table: string, error: UploadError): { title: string; description: string } {
  const what = TABLE_WORDS[table] ?? 'a change you made';
  const code = error.code ?? '';
  let reason: string;
  if (code === '42501' || error.status === 401 || error.status === 403)
    reason =
      'You are not allowed to do this (for example, the other member is no longer connected with you).';
  else if (code === '23503') reason = 'It refers to something that no longer exists.';
  else if (error.message && ERROR_KEY_WORDS[error.message]) reason = ERROR_KEY_WORDS[error.message]!;
  else if (error.message && /^[A-Z][^{}<>]{3,160}$/.test(error.message))
    // Our SQL raises sentences meant for people (limits, rules), so they can be shown as they are.
    reason = error.message.endsWith('.') ? error.message : `${error.message}.`;
  else reason = 'The server did not accept it as it was.';
  return { title: `We could not save ${what}`, description: reason };
}
