// Profile and match-preference checks mirrored from supabase/migrations/0001 and 0005 (SQL stays the authority),
// and the completeness meter. Pure: unit-tested.
import {
  getProfileCompleteness,
  MIN_ANSWERS,
  type ProfileCompleteness,
} from '../../domain/profile-completeness.ts';
import { DISTANCE_BANDS } from '../../domain/distance-band.ts';

export const GENDER_OPTIONS = ['woman', 'man', 'non-binary', 'other'] as const;
export const GOAL_OPTIONS = [
  'long-term',
  'short-term',
  'marriage',
  'friendship',
  'casual',
  'not-sure',
] as const;
export const STATUS_OPTIONS = ['single', 'divorced', 'separated', 'widowed', 'its-complicated'] as const;
export const EDUCATION_OPTIONS = [
  'high-school',
  'trade-school',
  'some-college',
  'associate',
  'bachelor',
  'master',
  'doctorate',
  'other',
] as const;
export const MAX_PHOTOS = 6;
export { MIN_ANSWERS };

export interface ProfileDraft {
  name: string;
  birthday: string;
  gender: string;
  looking_for: string[];
  relationship_goals: string;
  relationship_status: string;
  bio: string;
  interests: string[];
  career: string;
  industry: string;
  education_level: string;
  languages: string[];
  height: string;
  height_unit: 'cm' | 'ft';
  city: string;
  /** First-level region from the city list (stored in profiles.state; private like the rest of the row). */
  state: string;
  country: string;
  location_lat: number | null;
  location_lng: number | null;
  photos: string[];
}

export interface PreferencesDraft {
  min_age: number;
  max_age: number;
  genders: string[];
  max_distance_band: string;
  relationship_goals: string[];
}

export type Errors = Partial<Record<string, string>>;

function getAge(birthday: string, today: Date): number {
  const [y, m, d] = birthday.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  if (today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d)) age--;
  return age;
}

function checkList(items: string[], max: number, maxLen: number, label: string): string | undefined {
  if (items.length > max) return `At most ${max} ${label}.`;
  if (items.some((i) => i.trim() === '' || i.length > maxLen))
    return `Each of your ${label} must be 1 to ${maxLen} characters.`;
  return undefined;
}

/** Field → message for everything the database would refuse; an empty object when the draft is valid. */
export function validateProfile(p: ProfileDraft, today = new Date()): Errors {
  const e: Errors = {};
  if (p.name.trim() === '') e['name'] = 'Enter your name.';
  else if (p.name.length > 100) e['name'] = 'Your name can be at most 100 characters.';
  if (p.birthday) {
    if (
      !/^\d{4}-\d{2}-\d{2}$/.test(p.birthday) ||
      Number.isNaN(Date.parse(p.birthday)) ||
      p.birthday < '1900-01-01'
    )
      e['birthday'] = 'Enter a valid date of birth.';
    else if (getAge(p.birthday, today) < 18) e['birthday'] = 'Members must be at least 18 years old';
  }
  if (p.gender && !(GENDER_OPTIONS as readonly string[]).includes(p.gender))
    e['gender'] = 'Choose a gender from the list.';
  if (p.looking_for.some((g) => !(GENDER_OPTIONS as readonly string[]).includes(g)))
    e['looking_for'] = 'Choose from the list.';
  if (p.relationship_goals && !(GOAL_OPTIONS as readonly string[]).includes(p.relationship_goals))
    e['relationship_goals'] = 'Choose a goal from the list.';
  if (p.relationship_status && !(STATUS_OPTIONS as readonly string[]).includes(p.relationship_status))
    e['relationship_status'] = 'Choose a status from the list.';
  if (p.education_level && !(EDUCATION_OPTIONS as readonly string[]).includes(p.education_level))
    e['education_level'] = 'Choose an education level from the list.';
  if (p.bio.length > 2000) e['bio'] = 'Your bio can be at most 2000 characters.';
  const interests = checkList(p.interests, 30, 40, 'interests');
  if (interests) e['interests'] = interests;
  const languages = checkList(p.languages, 10, 40, 'languages');
  if (languages) e['languages'] = languages;
  if (p.career.length > 100) e['career'] = 'At most 100 characters.';
  if (p.industry.length > 100) e['industry'] = 'At most 100 characters.';
  if (p.height.trim() !== '') {
    const h = Number(p.height);
    const [lo, hi] = p.height_unit === 'cm' ? [100, 250] : [3, 8.5];
    if (!Number.isFinite(h) || h < lo || h > hi)
      e['height'] = `Height must be between ${lo} and ${hi} ${p.height_unit}.`;
  }
  if (p.photos.length > MAX_PHOTOS) e['photos'] = `At most ${MAX_PHOTOS} photos.`;
  if ((p.location_lat === null) !== (p.location_lng === null)) e['city'] = 'Choose your city from the list.';
  return e;
}

export function validatePreferences(p: PreferencesDraft): Errors {
  const e: Errors = {};
  for (const k of ['min_age', 'max_age'] as const)
    if (!Number.isInteger(p[k]) || p[k] < 18 || p[k] > 120)
      e[k] = 'Ages must be whole numbers from 18 to 120.';
  if (!e['min_age'] && !e['max_age'] && p.min_age > p.max_age)
    e['max_age'] = 'The maximum age must not be below the minimum.';
  if (p.genders.some((g) => !(GENDER_OPTIONS as readonly string[]).includes(g)))
    e['genders'] = 'Choose from the list.';
  if (p.max_distance_band && !(DISTANCE_BANDS as readonly string[]).includes(p.max_distance_band))
    e['max_distance_band'] = 'Choose a distance from the list.';
  if (p.relationship_goals.some((g) => !(GOAL_OPTIONS as readonly string[]).includes(g)))
    e['relationship_goals'] = 'Choose from the list.';
  return e;
}

/** Splits a comma-separated entry into trimmed, distinct items. */
export function splitList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

export type Completeness = Pick<ProfileCompleteness, 'percent' | 'missing'>;

/** What a complete profile has (src/domain/profile-completeness.ts, the rule every screen shares). */
export function getCompleteness(p: ProfileDraft, answers: number, hasPreferences: boolean): Completeness {
  const { percent, missing } = getProfileCompleteness({
    photos: p.photos.length,
    name: p.name,
    birthday: p.birthday,
    gender: p.gender,
    lookingFor: p.looking_for.length,
    relationshipGoal: p.relationship_goals,
    bio: p.bio,
    interests: p.interests.length,
    city: p.city,
    career: p.career,
    educationLevel: p.education_level,
    answers,
    hasPreferences,
  });
  return { percent, missing };
}

/** Interests offered with one tap in the profile (any other may be typed). */
export const SUGGESTED_INTERESTS = [
  'hiking',
  'cooking',
  'travel',
  'music',
  'reading',
  'yoga',
  'photography',
  'films',
  'running',
  'board games',
  'coffee',
  'art',
  'dancing',
  'cycling',
] as const;

/** Languages offered with one tap in the profile. */
export const SUGGESTED_LANGUAGES = [
  'English',
  'Spanish',
  'French',
  'German',
  'Italian',
  'Portuguese',
  'Mandarin',
  'Hindi',
  'Arabic',
] as const;

/** The profile builder's steps, in order; each has one save (or none, where its parts save themselves). */
export const BUILDER_STEPS = [
  { id: 'basics', title: 'The basics', hint: 'Your name, your age and who you would like to meet.' },
  {
    id: 'photos',
    title: 'Your photos',
    hint: 'Members with photos get far more likes. Your first photo is the one people see first.',
  },
  { id: 'about', title: 'About you', hint: 'A few words, your interests and languages start conversations.' },
  {
    id: 'place',
    title: 'Where you are',
    hint: 'Others see your city and a distance band, never your exact location.',
  },
  {
    id: 'preferences',
    title: 'Who you want to meet',
    hint: 'Your deck follows these; change them any time.',
  },
  {
    id: 'questions',
    title: 'Compatibility questions',
    hint: 'Your answers stay private: they only shape the compatibility score others see.',
  },
] as const;

export type BuilderStepId = (typeof BUILDER_STEPS)[number]['id'];

/** The step a `?step=` value names, or the first step for anything else. */
export function getBuilderStep(value: string | null): number {
  const i = BUILDER_STEPS.findIndex((s) => s.id === value);
  return i < 0 ? 0 : i;
}

/**
 * What the builder asks before a step moves on, beyond what any save checks: the basics need a date of
 * birth and a gender, because discovery cannot place a member without them.
 */
export function validateBuilderStep(step: BuilderStepId, p: ProfileDraft, today = new Date()): Errors {
  const e = validateProfile(p, today);
  if (step !== 'basics') return e;
  if (!p.birthday && !e['birthday']) e['birthday'] = 'Enter your date of birth.';
  if (!p.gender && !e['gender']) e['gender'] = 'Choose your gender.';
  return e;
}
