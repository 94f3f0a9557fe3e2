import { describe, expect, it } from 'vitest';
import {
  addGameEvent,
  countAgreements,
  decodeChoice,
  encodeChoice,
  getStoryAuthorSlot,
  isDuplicateError,
  joinStory,
  MAX_GAME_EVENTS,
  orderContent,
  parseQuestion,
  parseReactions,
  scoreQuiz,
  type GameEvent,
} from './games.ts';

describe('content order', () => {
  const ids = Array.from({ length: 30 }, (_, i) => `q${i + 1}`);
  it('is the same for a session on every device, never repeats, and differs between sessions', () => {
    const a = orderContent('11111111-1111-4111-8111-111111111111', ids);
    expect(orderContent('11111111-1111-4111-8111-111111111111', ids)).toEqual(a);
    expect(new Set(a).size).toBe(30);
    expect(orderContent('22222222-2222-4222-8222-222222222222', ids)).not.toEqual(a);
  });
  it('keeps the first question first when asked (This-or-That round 1)', () => {
    expect(orderContent('33333333-3333-4333-8333-333333333333', ids, true)[0]).toBe('q1');
  });
});

describe('choices', () => {
  it('round-trips each game’s choice', () => {
    expect(decodeChoice(encodeChoice('this-or-that', { pick: 'B' }))).toEqual({ pick: 'B' });
    expect(decodeChoice(encodeChoice('would-you-rather', { pick: 'A', why: '  more time ' }))).toEqual({
      pick: 'A',
      why: 'more time',
    });
    expect(decodeChoice(encodeChoice('couple-quiz', { self: 2, guess: 4 }))).toEqual({ self: 2, guess: 4 });
    expect(encodeChoice('would-you-rather', { pick: 'B', why: 'x'.repeat(500) }).length).toBeLessThanOrEqual(
      200,
    );
    expect(decodeChoice('{broken')).toBeUndefined();
    expect(decodeChoice(null)).toBeUndefined();
  });

  it('counts agreements and quiz scores from revealed rounds only', () => {
    expect(
      countAgreements([
        { player1_choice: 'A', player2_choice: 'A' },
        { player1_choice: 'A', player2_choice: 'B' },
        { player1_choice: null, player2_choice: null },
      ]),
    ).toEqual({ same: 1, of: 2 });
    const q = (self: number, guess: number) => JSON.stringify({ self, guess });
    expect(
      scoreQuiz([
        { player1_choice: q(0, 1), player2_choice: q(1, 0) },
        { player1_choice: q(2, 3), player2_choice: q(4, 2) },
      ]),
    ).toEqual({ player1: 1, player2: 2, of: 2 });
  });
});

describe('rounds and stories', () => {
  it('parses questions defensively', () => {
    expect(parseQuestion('{"text":"Pick","optionA":"a","optionB":"b","options":[1,"x"]}')).toEqual({
      text: 'Pick',
      optionA: 'a',
      optionB: 'b',
      options: ['x'],
    });
    expect(parseQuestion('{"optionA":"a"}')).toBeUndefined();
    expect(parseQuestion('nope')).toBeUndefined();
  });
  it('alternates story turns after the opening and reads the story back in order', () => {
    expect([2, 3, 4, 5].map(getStoryAuthorSlot)).toEqual([1, 2, 1, 2]);
    expect(
      joinStory([
        { round_number: 2, text: 'Then rain. ' },
        { round_number: 1, text: 'It began.' },
      ]),
    ).toBe('It began. Then rain.');
  });
  it('reads reactions and duplicate-key errors', () => {
    expect(parseReactions('{"u1":"love","u2":5}')).toEqual({ u1: 'love' });
    expect(isDuplicateError({ code: '23505' })).toBe(true);
    expect(isDuplicateError(new Error('UNIQUE constraint failed: ps_data__game_rounds.id'))).toBe(true);
    expect(isDuplicateError(new Error('offline'))).toBe(false);
  });
  it('keeps at most 100 events', () => {
    let h: GameEvent[] = [];
    for (let i = 0; i < 120; i++) h = addGameEvent(h, { type: 'GAME_STATE_CHANGED', sessionId: 's', at: i });
    expect(h).toHaveLength(MAX_GAME_EVENTS);
    expect(h[0]?.at).toBe(20);
  });
});
