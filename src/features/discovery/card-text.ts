// Words on a discovery card: the distance band and "why you match" from the server's explanation (pure, unit-tested).
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
