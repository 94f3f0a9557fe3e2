// The compatibility rule of discovery, mirrored from public.get_compatibility in
// supabase/migrations/0008_discovery.sql (SQL is the authority; tests/sql/compatibility-agreement.test.ts
// proves both agree). Pure: no DOM, no Node.

export type Importance = 0 | 1 | 2 | 3;

export interface CompatibilityAnswer {
  questionId: number;
  /** Index of the chosen option. */
  answer: number;
  /** Option indexes this member accepts from someone else. */
  acceptableAnswers: readonly number[];
  importance: Importance;
}

export interface CompatibilityProfile {
  interests: readonly string[];
  relationshipGoals: string | null;
  answers: readonly CompatibilityAnswer[];
}

export interface CompatibilityExplanation {
  /** Questions both members answered. */
  commonQuestions: number;
  /** Common questions where each accepts the other's answer. */
  sharedAnswers: number;
  /** 0-100 from the answers, or null when no common question carries weight. */
  answersScore: number | null;
  /** Normalised interests both have, sorted. */
  sharedInterests: string[];
  interestsScore: number;
  goalsMatch: boolean;
}

export interface Compatibility {
  score: number;
  explanation: CompatibilityExplanation;
}

/** Steep weights, so "very important" questions dominate (0 irrelevant ... 3 very important). */
const IMPORTANCE_WEIGHTS: Record<Importance, number> = { 0: 0, 1: 1, 2: 10, 3: 50 };

/** Share of the score from answers, interests and goals, in percent. */
export const COMPATIBILITY_WEIGHTS = { answers: 60, interests: 25, goals: 15 } as const;

export function getImportanceWeight(importance: Importance): number {
  return IMPORTANCE_WEIGHTS[importance];
}

/**
 * One interest as compared (public.normalize_interest): ASCII letters lower-cased and spaces trimmed, nothing
 * else, as the SQL does with lower() under the "C" collation and btrim(): locale-aware lower-casing would
 * differ between PostgreSQL builds and JavaScript.
 */
export function normalizeInterest(item: string): string {
  return item.replace(/[A-Z]/g, (c) => c.toLowerCase()).replace(/^ +| +$/g, '');
}

/** A member's interests as compared (public.normalize_interests): normalised, without blanks or repeats, sorted. */
export function normalizeInterests(items: readonly string[]): string[] {
  const out = new Set<string>();
  for (const item of items) {
    const n = normalizeInterest(item);
    if (n !== '') out.add(n);
  }
  return [...out].sort();
}

/** Integer division as SQL does it for non-negative ints. */
function divide(a: number, b: number): number {
  return Math.floor(a / b);
}

export function computeCompatibilityScore(parts: {
  earnedA: number;
  possibleA: number;
  earnedB: number;
  possibleB: number;
  sharedInterests: number;
  allInterests: number;
  goalsMatch: boolean;
}): number {
  const possible = parts.possibleA + parts.possibleB;
  const answers = possible === 0 ? 50 : divide(100 * (parts.earnedA + parts.earnedB), possible);
  const interests = parts.allInterests === 0 ? 0 : divide(100 * parts.sharedInterests, parts.allInterests);
  const goals = parts.goalsMatch ? 100 : 0;
  const w = COMPATIBILITY_WEIGHTS;
  return divide(w.answers * answers + w.interests * interests + w.goals * goals, 100);
}

/** The score (0-100) of a pair and why; symmetric in a and b. */
export function computeCompatibility(a: CompatibilityProfile, b: CompatibilityProfile): Compatibility {
  const bAnswers = new Map(b.answers.map((x) => [x.questionId, x]));
  let commonQuestions = 0;
  let sharedAnswers = 0;
  let earnedA = 0;
  let possibleA = 0;
  let earnedB = 0;
  let possibleB = 0;
  for (const xa of a.answers) {
    const xb = bAnswers.get(xa.questionId);
    if (!xb) continue;
    commonQuestions += 1;
    const aAccepts = xa.acceptableAnswers.includes(xb.answer);
    const bAccepts = xb.acceptableAnswers.includes(xa.answer);
    if (aAccepts && bAccepts) sharedAnswers += 1;
    possibleA += getImportanceWeight(xa.importance);
    possibleB += getImportanceWeight(xb.importance);
    if (aAccepts) earnedA += getImportanceWeight(xa.importance);
    if (bAccepts) earnedB += getImportanceWeight(xb.importance);
  }
  const interestsA = normalizeInterests(a.interests);
  const interestsB = new Set(normalizeInterests(b.interests));
  const shared = interestsA.filter((x) => interestsB.has(x));
  const allInterests = new Set([...interestsA, ...interestsB]).size;
  const goalsMatch = a.relationshipGoals !== null && a.relationshipGoals === b.relationshipGoals;
  const possible = possibleA + possibleB;
  return {
    score: computeCompatibilityScore({
      earnedA,
      possibleA,
      earnedB,
      possibleB,
      sharedInterests: shared.length,
      allInterests,
      goalsMatch,
    }),
    explanation: {
      commonQuestions,
      sharedAnswers,
      answersScore: possible === 0 ? null : divide(100 * (earnedA + earnedB), possible),
      sharedInterests: shared,
      interestsScore: allInterests === 0 ? 0 : divide(100 * shared.length, allInterests),
      goalsMatch,
    },
  };
}
