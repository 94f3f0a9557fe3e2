import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeCompatibility, normalizeInterests, type CompatibilityProfile } from './compatibility.ts';

const empty: CompatibilityProfile = { interests: [], relationshipGoals: null, answers: [] };

describe('compatibility', () => {
  it('two empty profiles score the neutral answer part only', () => {
    // 60% of a neutral 50 = 30; no interests, no goals.
    expect(computeCompatibility(empty, empty).score).toBe(30);
    expect(computeCompatibility(empty, empty).explanation.answersScore).toBeNull();
  });

  it('identical accepting answers, interests and goals score 100', () => {
    const p: CompatibilityProfile = {
      interests: ['Hiking', 'music'],
      relationshipGoals: 'long-term',
      answers: [{ questionId: 1, answer: 0, acceptableAnswers: [0], importance: 3 }],
    };
    const c = computeCompatibility(p, p);
    expect(c.score).toBe(100);
    expect(c.explanation).toMatchObject({ commonQuestions: 1, sharedAnswers: 1, goalsMatch: true });
    expect(c.explanation.sharedInterests).toEqual(['hiking', 'music']);
  });

  it('a very important dealbreaker outweighs minor agreements', () => {
    const a: CompatibilityProfile = {
      ...empty,
      answers: [
        { questionId: 1, answer: 0, acceptableAnswers: [0], importance: 3 },
        { questionId: 2, answer: 0, acceptableAnswers: [0], importance: 1 },
      ],
    };
    const b: CompatibilityProfile = {
      ...empty,
      answers: [
        { questionId: 1, answer: 1, acceptableAnswers: [1], importance: 3 },
        { questionId: 2, answer: 0, acceptableAnswers: [0], importance: 1 },
      ],
    };
    const c = computeCompatibility(a, b);
    expect(c.explanation.answersScore).toBe(1); // (1 + 1) * 100 / (51 + 51)
    expect(c.score).toBe(0);
  });

  it('interests compare ignoring ASCII case and surrounding spaces, without duplicates', () => {
    expect(normalizeInterests([' Music ', 'music', 'MUSIC', '  ', 'Éclair'])).toEqual(['music', 'Éclair']);
  });

  it('is symmetric and always within 0-100', () => {
    const answer = fc.record({
      questionId: fc.integer({ min: 1, max: 6 }),
      answer: fc.integer({ min: 0, max: 3 }),
      acceptableAnswers: fc.uniqueArray(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 }),
      importance: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const),
    });
    const profile = fc.record({
      interests: fc.array(fc.constantFrom('music', 'Music', 'art', 'hiking', 'food'), { maxLength: 5 }),
      relationshipGoals: fc.constantFrom(null, 'long-term', 'casual'),
      answers: fc.uniqueArray(answer, { selector: (x) => x.questionId, maxLength: 6 }),
    });
    fc.assert(
      fc.property(profile, profile, (a, b) => {
        const ab = computeCompatibility(a, b).score;
        expect(ab).toBe(computeCompatibility(b, a).score);
        expect(ab).toBeGreaterThanOrEqual(0);
        expect(ab).toBeLessThanOrEqual(100);
      }),
    );
  });
});
