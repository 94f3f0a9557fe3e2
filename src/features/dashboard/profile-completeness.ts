// Profile completeness for the dashboard: the share of steps done and the next step with where to do it.

export interface CompletenessInput {
  name: string | null;
  birthday: string | null;
  gender: string | null;
  bio: string | null;
  city: string | null;
  career: string | null;
  /** JSON text arrays as the replica stores them. */
  photos: string | null;
  interests: string | null;
  match_preferences_completed: number | null;
  answers: number;
}

interface Step {
  label: string;
  to: string;
  done: (p: CompletenessInput) => boolean;
}

function countList(json: string | null): number {
  try {
    const v = JSON.parse(json ?? '[]') as unknown;
    return Array.isArray(v) ? v.length : 0;
  } catch {
    return 0;
  }
}

const filled = (v: string | null) => !!v && v.trim().length > 0;

/** In the order a member is asked to do them. */
export const PROFILE_STEPS: readonly Step[] = [
  { label: 'Add your name', to: '/profile', done: (p) => filled(p.name) },
  { label: 'Add your birthday', to: '/profile', done: (p) => filled(p.birthday) },
  { label: 'Choose your gender', to: '/profile', done: (p) => filled(p.gender) },
  { label: 'Add a photo', to: '/profile', done: (p) => countList(p.photos) > 0 },
  { label: 'Write a short bio', to: '/profile', done: (p) => filled(p.bio) },
  { label: 'Pick at least 3 interests', to: '/profile', done: (p) => countList(p.interests) >= 3 },
  { label: 'Add your city', to: '/profile', done: (p) => filled(p.city) },
  { label: 'Add your career', to: '/profile', done: (p) => filled(p.career) },
  {
    label: 'Set your match preferences',
    to: '/profile-builder',
    done: (p) => p.match_preferences_completed === 1,
  },
  { label: 'Answer compatibility questions', to: '/profile-builder', done: (p) => p.answers > 0 },
];

export function getProfileCompleteness(p: CompletenessInput): {
  percent: number;
  next: { label: string; to: string } | undefined;
} {
  const done = PROFILE_STEPS.filter((s) => s.done(p)).length;
  const next = PROFILE_STEPS.find((s) => !s.done(p));
  return {
    percent: Math.round((done / PROFILE_STEPS.length) * 100),
    next: next && { label: next.label, to: next.to },
  };
}
