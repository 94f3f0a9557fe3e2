import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  computeCompatibility,
  type CompatibilityAnswer,
  type CompatibilityProfile,
  type Importance,
} from '../../src/domain/compatibility.ts';
import { getDistanceBand, getDistanceKm } from '../../src/domain/distance-band.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember } from './support/members.ts';

const GOALS = [null, 'long-term', 'short-term', 'marriage', 'friendship', 'casual', 'not-sure'] as const;

describe.each(getDatabaseKinds())('compatibility in SQL and TypeScript agree on %s', (kind) => {
  let db: TestDatabase;
  let optionCounts: Map<number, number>;
  let a: string;
  let b: string;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const q = await db.query<{ id: number; n: number }>(
      'select id, cardinality(options) n from public.compatibility_questions order by id',
    );
    optionCounts = new Map(q.rows.map((r) => [r.id, r.n]));
    a = await createMember(db);
    b = await createMember(db);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('the questionnaire has at least 40 questions, each with options', () => {
    expect(optionCounts.size).toBeGreaterThanOrEqual(40);
    for (const n of optionCounts.values()) expect(n).toBeGreaterThanOrEqual(2);
  });

  /** Random answers valid for the seeded questions (first 12, so pairs overlap often). */
  const answers = () =>
    fc.uniqueArray(
      fc.integer({ min: 1, max: 12 }).chain((questionId) => {
        const n = optionCounts.get(questionId) ?? 2;
        return fc.record({
          questionId: fc.constant(questionId),
          answer: fc.integer({ min: 0, max: n - 1 }),
          acceptableAnswers: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), {
            minLength: 1,
            maxLength: n,
          }),
          importance: fc.constantFrom<Importance>(0, 1, 2, 3),
        });
      }),
      { selector: (x: CompatibilityAnswer) => x.questionId, maxLength: 12 },
    );
  const interest = fc.oneof(
    fc.constantFrom(
      'Music',
      'music',
      ' MUSIC ',
      'Hiking',
      'hiking',
      'Éclair',
      'éclair',
      'İstanbul',
      'istanbul',
      'ß',
    ),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((s) => !s.includes('\u0000')),
  );
  const profile = () =>
    fc.record({
      interests: fc.array(interest, { maxLength: 8 }),
      relationshipGoals: fc.constantFrom(...GOALS),
      answers: answers(),
    });

  async function store(id: string, p: CompatibilityProfile): Promise<void> {
    await db.query('update public.profiles set interests = $2, relationship_goals = $3 where id = $1', [
      id,
      p.interests,
      p.relationshipGoals,
    ]);
    await db.query('delete from public.profile_answers where user_id = $1', [id]);
    for (const x of p.answers) {
      await db.query(
        `insert into public.profile_answers (user_id, question_id, answer, acceptable_answers, importance)
         values ($1, $2, $3, $4, $5)`,
        [id, x.questionId, x.answer, x.acceptableAnswers, x.importance],
      );
    }
  }

  it('score and explanation match for random profiles', async () => {
    await fc.assert(
      fc.asyncProperty(profile(), profile(), async (pa, pb) => {
        await store(a, pa);
        await store(b, pb);
        const r = await db.query<{ score: number; explanation: Record<string, unknown> }>(
          'select score, explanation from public.get_compatibility($1, $2)',
          [a, b],
        );
        const sql = r.rows[0];
        const ts = computeCompatibility(pa, pb);
        expect(sql?.score).toBe(ts.score);
        expect(sql?.explanation).toMatchObject({
          common_questions: ts.explanation.commonQuestions,
          shared_answers: ts.explanation.sharedAnswers,
          answers_score: ts.explanation.answersScore,
          interests_score: ts.explanation.interestsScore,
          goals_match: ts.explanation.goalsMatch,
        });
        // Order may follow the database collation: compare as sets.
        expect([...(sql?.explanation['shared_interests'] as string[])].sort()).toEqual(
          [...ts.explanation.sharedInterests].sort(),
        );
      }),
      { numRuns: 60 },
    );
  });

  it('distance bands match for random grid positions', async () => {
    const coord = (max: number) => fc.integer({ min: -max * 10, max: max * 10 }).map((x) => x / 10);
    await fc.assert(
      fc.asyncProperty(coord(90), coord(180), coord(90), coord(180), async (lat1, lng1, lat2, lng2) => {
        const r = await db.query<{ band: string }>(
          'select public.get_distance_band(public.get_distance_km($1, $2, $3, $4)) band',
          [lat1, lng1, lat2, lng2],
        );
        expect(r.rows[0]?.band).toBe(getDistanceBand(getDistanceKm(lat1, lng1, lat2, lng2)));
      }),
      { numRuns: 100 },
    );
  });
});
