// Profile completeness for the dashboard: the replica's row mapped onto the one rule every screen shares
// (src/domain/profile-completeness.ts), so the dashboard and My Profile always show the same figure.
import {
  getProfileCompleteness as getCompleteness,
  type ProfileCompleteness,
} from '../../domain/profile-completeness.ts';

export interface CompletenessInput {
  name: string | null;
  birthday: string | null;
  gender: string | null;
  /** JSON text arrays as the replica stores them. */
  looking_for: string | null;
  relationship_goals: string | null;
  bio: string | null;
  city: string | null;
  career: string | null;
  education_level: string | null;
  photos: string | null;
  interests: string | null;
  answers: number;
  /** 1 when the member has a match preferences row (as My Profile counts it). */
  has_preferences: number;
}

function countList(json: string | null): number {
  try {
    const v = JSON.parse(json ?? '[]') as unknown;
    return Array.isArray(v) ? v.length : 0;
  } catch {
    return 0;
  }
}

export function getProfileCompleteness(p: CompletenessInput): ProfileCompleteness {
  return getCompleteness({
    photos: countList(p.photos),
    name: p.name ?? '',
    birthday: p.birthday ?? '',
    gender: p.gender ?? '',
    lookingFor: countList(p.looking_for),
    relationshipGoal: p.relationship_goals ?? '',
    bio: p.bio ?? '',
    interests: countList(p.interests),
    city: p.city ?? '',
    career: p.career ?? '',
    educationLevel: p.education_level ?? '',
    answers: p.answers,
    hasPreferences: p.has_preferences === 1,
  });
}
