// Conversation starters: shared topics first, the other member's next, never a turned-down one, at most three.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getAiMessageMarking, getConversationStarters, MAX_STARTERS } from './wingman.ts';

describe('getConversationStarters', () => {
  it('starts from what both share, then what the other member lists, each with an opener naming them', () => {
    const starters = getConversationStarters({
      mine: ['Hiking', 'jazz ', 'chess'],
      theirs: ['jazz', 'cooking', 'hiking', 'surfing'],
      theirName: 'Ben',
      turnedDown: [],
    });
    expect(starters.map((s) => [s.topic, s.shared])).toEqual([
      ['jazz', true],
      ['hiking', true],
      ['cooking', false],
    ]);
    expect(starters[0]!.opener).toBe('Hi Ben! I see we both love jazz. What got you into it?');
    expect(starters[2]!.opener).toContain('cooking');
  });

  it('never offers a topic the member turned down, whatever its case', () => {
    const starters = getConversationStarters({
      mine: ['jazz'],
      theirs: ['Jazz', 'cooking'],
      theirName: 'Ben',
      turnedDown: ['JAZZ'],
    });
    expect(starters.map((s) => s.topic)).toEqual(['cooking']);
  });

  it('compares interests as the deck does: only ASCII letters change case, only spaces are trimmed', () => {
    const starters = getConversationStarters({
      mine: [' Éclair ', 'İstanbul'],
      theirs: ['éclair', 'İSTANBUL', 'Éclair'],
      theirName: 'Ben',
      turnedDown: [],
    });
    // 'Éclair' is shared ('É' is not an ASCII letter, so 'éclair' is another interest); 'İSTANBUL' becomes
    // 'İstanbul', as public.normalize_interest makes it.
    expect(starters.map((s) => [s.topic, s.shared])).toEqual([
      ['İstanbul', true],
      ['Éclair', true],
      ['éclair', false],
    ]);
  });

  it('offers nothing when the other member lists nothing', () => {
    expect(getConversationStarters({ mine: ['jazz'], theirs: [], theirName: 'Ben', turnedDown: [] })).toEqual(
      [],
    );
  });

  it('at most three, distinct, none turned down, for any lists', () => {
    const list = fc.array(fc.string({ maxLength: 12 }), { maxLength: 10 });
    fc.assert(
      fc.property(list, list, list, (mine, theirs, turnedDown) => {
        const s = getConversationStarters({ mine, theirs, theirName: 'Ben', turnedDown });
        // the server's rule, written out: ASCII letters lower-cased, spaces trimmed
        const down = new Set(
          turnedDown.map((t) => t.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/^ +| +$/g, '')),
        );
        return (
          s.length <= MAX_STARTERS &&
          new Set(s.map((x) => x.topic)).size === s.length &&
          s.every((x) => !down.has(x.topic) && x.topic !== '')
        );
      }),
    );
  });
});

it('the AI marking is the server’s', () => {
  expect(getAiMessageMarking('Cupid')).toEqual({
    ai: { generated: true, by: 'agent', agent_name: 'Cupid', disclosure: 'written with AI help' },
  });
});
