import { describe, expect, it } from 'vitest';
import { isNewMatch, splitNewMatches, type ListedConversation } from './new-matches.ts';

const fresh: ListedConversation = {
  match_exists: 1,
  other_visible: 1,
  blocked_by_me: 0,
  last_at: null,
  conversation_last_at: null,
};

describe('isNewMatch', () => {
  it('is a live match nobody has written in', () => {
    expect(isNewMatch(fresh)).toBe(true);
  });
  it('is not once a message is here or the server says one was sent', () => {
    expect(isNewMatch({ ...fresh, last_at: '2026-11-30T10:00:00Z' })).toBe(false);
    expect(isNewMatch({ ...fresh, conversation_last_at: '2026-11-30T10:00:00Z' })).toBe(false);
  });
  it('is not for an ended match, a blocked member or a hidden one', () => {
    expect(isNewMatch({ ...fresh, match_exists: 0 })).toBe(false);
    expect(isNewMatch({ ...fresh, blocked_by_me: 1 })).toBe(false);
    expect(isNewMatch({ ...fresh, other_visible: 0 })).toBe(false);
  });
});

describe('splitNewMatches', () => {
  it('keeps the order within each part', () => {
    const a = { ...fresh, id: 'a' };
    const b = { ...fresh, id: 'b', last_at: '2026-11-30T10:00:00Z' };
    const c = { ...fresh, id: 'c' };
    const d = { ...fresh, id: 'd', match_exists: 0 };
    const { newMatches, conversations } = splitNewMatches([a, b, c, d]);
    expect(newMatches.map((x) => x.id)).toEqual(['a', 'c']);
    expect(conversations.map((x) => x.id)).toEqual(['b', 'd']);
  });
});
