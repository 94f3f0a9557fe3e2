// Words on a discovery card: the distance band and "why you match" from the server's explanation, and the saved
// age range above the deck (pure, unit-tested).
import { DISTANCE_BANDS, type DistanceBand } from '../../domain/distance-band.ts';

/** The band as a sentence; never a number of metres (the server only sends the band). */
export function getDistanceText(band: string | null | undefined): string | undefined {
  if (!band || !(DISTANCE_BANDS as readonly string[]).includes(band)) return undefined;
  const b = band as DistanceBand;
  if (b === 'under 5 km') return 'Less than 5 km away';
  if (b === '100+ km') return 'More than 100 km away';
  return `${b} away`;
}

export interface MatchExplanation {
  common_questions?: number;
  shared_answers?: number;
  answers_score?: number | null;
  shared_interests?: string[];
  interests_score?: number;
  goals_match?: boolean;
}

/** Parses the explanation as the replica keeps it (JSON text) or as the RPC returns it. */
export function parseExplanation(value: unknown): MatchExplanation {
  let v = value;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      return {};
    }
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as MatchExplanation) : {};
}

/** Up to three short reasons, strongest first; an empty list when there is nothing to say. */
export function getWhyYouMatch(e: MatchExplanation): string[] {
  const reasons: string[] = [];
  const shared = e.shared_interests ?? [];
  if (shared.length === 1) reasons.push(`You both like ${shared[0]}`);
  else if (shared.length > 1)
    reasons.push(
      `You both like ${shared.slice(0, -1).slice(0, 2).join(', ')} and ${shared[shared.length - 1]}`,
    );
  if (e.goals_match) reasons.push('You want the same kind of relationship');
  if ((e.common_questions ?? 0) > 0 && (e.shared_answers ?? 0) > 0)
    reasons.push(`You agree on ${e.shared_answers} of ${e.common_questions} questions you both answered`);
  return reasons.slice(0, 3);
}

/** The youngest and oldest ages a member may ask for (match_preferences' checks). */
export const AGE_FLOOR = 18;
export const AGE_CEILING = 120;

/**
 * A saved age range in words: "ages 25-35", "ages 25+", "ages up to 35", and "any age" for the whole range
 * (stored as 18 and 120, which read as figures nobody chose).
 */
export function describeAgeRange(min: number | null, max: number | null): string {
  const from = min !== null && min > AGE_FLOOR ? min : undefined;
  const to = max !== null && max < AGE_CEILING ? max : undefined;
  if (from !== undefined && to !== undefined) return from === to ? `age ${from}` : `ages ${from}-${to}`;
  if (from !== undefined) return `ages ${from}+`;
  if (to !== undefined) return `ages up to ${to}`;
  return 'any age';
}
