// The thread's window on a conversation: the newest page first, then "Load earlier messages" moves the window's
// start back by a page. Pure (no React, no replica) so the bench and the unit tests use the same SQL and shaping.

/** Messages per page: what the thread opens with and what "Load earlier messages" adds. */
export const THREAD_PAGE_SIZE = 50;

const COLUMNS = 'id, conversation_id, sender_id, recipient_id, content, type, metadata, status, created_at';

/**
 * The thread's first page: the newest messages, newest first, one more than a page (?2 = page + 1) to know
 * whether older ones exist (parameters: conversation, page + 1). Walks the replica's (conversation_id, created_at) index backwards.
 */
export const THREAD_NEWEST_SQL = `select ${COLUMNS} from messages where conversation_id = ?
  order by created_at desc, id desc limit ?`;

/**
 * After "Load earlier messages": every message from the window's start on, so new ones
 * keep arriving at the bottom while the earlier ones stay; plus the one message just before the start (to know
 * whether there are earlier ones). Newest first, like THREAD_NEWEST_SQL. Plain `?` parameters (some SQLite
 * drivers read `?1` as a named one): findThreadQuery lists them.
 */
export const THREAD_FROM_SQL = `select * from (select ${COLUMNS} from messages where conversation_id = ?
    and created_at >= ? and (created_at > ? or id >= ?))
  union all
  select * from (select ${COLUMNS} from messages where conversation_id = ?
    and created_at <= ? and (created_at < ? or id < ?)
    order by created_at desc, id desc limit 1)
  order by created_at desc, id desc`;

/**
 * Where the window starts when a page is added before `oldest` (the oldest message shown): the page-th message
 * before it, or the conversation's first when fewer are left. Parameters: earlierStartParameters.
 */
export const THREAD_EARLIER_START_SQL = `select created_at, id from (select created_at, id from messages
    where conversation_id = ? and created_at <= ? and (created_at < ? or id < ?)
    order by created_at desc, id desc limit ?)
  order by created_at, id limit 1`;

/** A message's place in the thread's order. */
export interface ThreadKey {
  created_at: string;
  id: string;
}

/** Orders like the SQL: created_at, then id. */
export function compareThreadKeys(a: ThreadKey, b: ThreadKey): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? -1 : 1;
}

/** The query that fills the window: the newest page while there is no start, else everything from the start. */
export function findThreadQuery(
  conversationId: string,
  start: ThreadKey | undefined,
  pageSize: number = THREAD_PAGE_SIZE,
): { sql: string; parameters: (string | number)[] } {
  return start
    ? {
        sql: THREAD_FROM_SQL,
        // The window from its start, then the one message just before it.
        parameters: [
          ...[conversationId, start.created_at, start.created_at, start.id],
          ...[conversationId, start.created_at, start.created_at, start.id],
        ],
      }
    : { sql: THREAD_NEWEST_SQL, parameters: [conversationId, pageSize + 1] };
}

/** THREAD_EARLIER_START_SQL's parameters: before `oldest` (the oldest message shown), a page back. */
export function earlierStartParameters(
  conversationId: string,
  oldest: ThreadKey,
  pageSize: number = THREAD_PAGE_SIZE,
): (string | number)[] {
  return [conversationId, oldest.created_at, oldest.created_at, oldest.id, pageSize];
}

/**
 * The rows either query returned (newest first) as the screen shows them: oldest first, without the one extra
 * row that only says there are earlier messages.
 */
export function shapeThreadWindow<T extends ThreadKey>(
  newestFirst: readonly T[],
  start: ThreadKey | undefined,
  pageSize: number = THREAD_PAGE_SIZE,
): { messages: T[]; hasEarlier: boolean } {
  const shown = start
    ? newestFirst.filter((m) => compareThreadKeys(m, start) >= 0)
    : newestFirst.slice(0, pageSize);
  return { messages: [...shown].reverse(), hasEarlier: shown.length < newestFirst.length };
}
