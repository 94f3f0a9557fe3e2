// Profile completeness: percent of steps done and the first step left.
import { describe, expect, it } from 'vitest';
import { getProfileCompleteness, PROFILE_STEPS, type CompletenessInput } from './profile-completeness.ts';

const empty: CompletenessInput = {
  name: null,
  birthday: null,
  gender: null,
  bio: null,
  city: null,
  career: null,
  photos: '[]',
  interests: '[]',
  match_preferences_completed: 0,
  answers: 0,
};
const full: CompletenessInput = {
  name: 'Ann',
  birthday: '1990-01-01',
  gender: 'woman',
  bio: 'Hi',
  city: 'Oslo',
  career: 'Nurse',
  photos: '["a/1.jpg"]',
  interests: '["a","b","c"]',
  match_preferences_completed: 1,
  answers: 4,
};

describe('profile completeness', () => {
  it('is 0 % with the name as next step for an empty profile and 100 % with none for a full one', () => {
    expect(getProfileCompleteness(empty)).toEqual({
      percent: 0,
      next: { label: 'Add your name', to: '/profile' },
    });
    expect(getProfileCompleteness(full)).toEqual({ percent: 100, next: undefined });
  });
  it('names the first missing step and counts each step once', () => {
    const r = getProfileCompleteness({ ...full, interests: '["a","b"]', answers: 0 });
    expect(r.next?.label).toBe('Pick at least 3 interests');
    expect(r.percent).toBe(Math.round(((PROFILE_STEPS.length - 2) / PROFILE_STEPS.length) * 100));
  });
  it('treats whitespace and broken JSON as missing', () => {
    expect(getProfileCompleteness({ ...full, bio: '   ' }).next?.label).toBe('Write a short bio');
    expect(getProfileCompleteness({ ...full, photos: 'not json' }).next?.label).toBe('Add a photo');
  });
});
