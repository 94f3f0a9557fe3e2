// The conversation list's two parts: new matches (matched, nobody has written yet), shown as a row of faces at
// the top as dating apps do, and the conversations, where a match moves once either of them writes.

/** The parts of a conversation summary read here. */
export interface ListedConversation {
  match_exists: number;
  other_visible: number;
  blocked_by_me: number;
  /** The newest message this device holds. */
  last_at: string | null;
  /** The conversation's own last-message time (set by the server; a message may not have synced here yet). */
  conversation_last_at: string | null;
}

/** A live match nobody has written in yet. An ended match, a block or a hidden member stays in the list. */
export function isNewMatch(c: ListedConversation): boolean {
  return (
    c.match_exists === 1 &&
    c.other_visible === 1 &&
    c.blocked_by_me === 0 &&
    c.last_at === null &&
    c.conversation_last_at === null
  );
}

/** Splits the list (its order kept in each part: newest first). */
export function splitNewMatches<T extends ListedConversation>(
  items: readonly T[],
): { newMatches: T[]; conversations: T[] } {
  const newMatches: T[] = [];
  const conversations: T[] = [];
  for (const c of items) (isNewMatch(c) ? newMatches : conversations).push(c);
  return { newMatches, conversations };
}
