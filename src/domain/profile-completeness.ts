// One profile-completeness rule for every screen (issue 20: the dashboard and My Profile disagreed, 90% vs 92%):
// twelve steps of equal weight, in the order a member is asked to do them, each with what is missing, the next
// step's words and where to do it.

/** Answers a complete profile has (the questionnaire behind compatibility). */
export const MIN_ANSWERS = 10;

/** What the rule looks at, already read from the profile (any screen's source maps to this). */
export interface CompletenessFacts {
  photos: number;
  name: string;
  birthday: string;
  gender: string;
  lookingFor: number;
  relationshipGoal: string;
  bio: string;
  interests: number;
  city: string;
  career: string;
  educationLevel: string;
  answers: number;
  hasPreferences: boolean;
}

interface Step {
  done: (f: CompletenessFacts) => boolean;
  /** "Your profile lacks ..." */
  missing: string;
  /** The next step, as a link's words. */
  action: string;
  to: string;
}

const STEPS: readonly Step[] = [
  { done: (f) => f.photos > 0, missing: 'a photo', action: 'Add a photo', to: '/profile' },
  { done: (f) => f.name.trim() !== '', missing: 'your name', action: 'Add your name', to: '/profile' },
  {
    done: (f) => f.birthday !== '',
    missing: 'your date of birth',
    action: 'Add your birthday',
    to: '/profile',
  },
  { done: (f) => f.gender !== '', missing: 'your gender', action: 'Choose your gender', to: '/profile' },
  {
    done: (f) => f.lookingFor > 0,
    missing: 'who you are looking for',
    action: 'Say who you are looking for',
    to: '/profile',
  },
  {
    done: (f) => f.relationshipGoal !== '',
    missing: 'your relationship goal',
    action: 'Choose your relationship goal',
    to: '/profile',
  },
  {
    done: (f) => f.bio.trim().length >= 20,
    missing: 'a bio (20 characters or more)',
    action: 'Write a short bio',
    to: '/profile',
  },
  {
    done: (f) => f.interests >= 3,
    missing: 'at least 3 interests',
    action: 'Pick at least 3 interests',
    to: '/profile',
  },
  { done: (f) => f.city !== '', missing: 'your city', action: 'Add your city', to: '/profile' },
  {
    done: (f) => f.career.trim() !== '' || f.educationLevel !== '',
    missing: 'your career or education',
    action: 'Add your career or education',
    to: '/profile',
  },
  {
    done: (f) => f.answers >= MIN_ANSWERS,
    missing: `at least ${MIN_ANSWERS} questionnaire answers`,
    action: 'Answer compatibility questions',
    to: '/profile-builder?step=questions',
  },
  {
    done: (f) => f.hasPreferences,
    missing: 'your match preferences',
    action: 'Set your match preferences',
    to: '/profile-builder?step=preferences',
  },
];

/** The number of steps (each weighs the same). */
export const COMPLETENESS_STEPS = STEPS.length;

export interface ProfileCompleteness {
  percent: number;
  /** What is missing, in the steps' order. */
  missing: string[];
  /** The first step left, or undefined when the profile is complete. */
  next: { label: string; to: string } | undefined;
}

export function getProfileCompleteness(f: CompletenessFacts): ProfileCompleteness {
  const left = STEPS.filter((s) => !s.done(f));
  const first = left[0];
  return {
    percent: Math.round((100 * (STEPS.length - left.length)) / STEPS.length),
    missing: left.map((s) => s.missing),
    next: first && { label: first.action, to: first.to },
  };
}
