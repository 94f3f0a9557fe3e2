// The one completeness rule: twelve equal steps, the first missing one named with where to do it.
import { describe, expect, it } from 'vitest';
import {
  COMPLETENESS_STEPS,
  getProfileCompleteness,
  MIN_ANSWERS,
  type CompletenessFacts,
} from './profile-completeness.ts';

const full: CompletenessFacts = {
  photos: 1,
  name: 'Ann',
  birthday: '1990-01-01',
  gender: 'woman',
  lookingFor: 1,
  relationshipGoal: 'long-term',
  bio: 'I love long walks and good books.',
  interests: 3,
  city: 'Oslo',
  career: '',
  educationLevel: 'bachelors',
  answers: MIN_ANSWERS,
  hasPreferences: true,
};

describe('profile completeness', () => {
  it('is 100% with nothing next for a full profile', () => {
    expect(getProfileCompleteness(full)).toEqual({ percent: 100, missing: [], next: undefined });
    expect(COMPLETENESS_STEPS).toBe(12);
  });
  it('names the first missing step and where to do it; each step weighs the same', () => {
    const r = getProfileCompleteness({ ...full, interests: 2, hasPreferences: false });
    expect(r.next).toEqual({ label: 'Pick at least 3 interests', to: '/profile' });
    expect(r.missing).toEqual(['at least 3 interests', 'your match preferences']);
    expect(r.percent).toBe(83);
  });
  it('counts a blank name, a short bio and too few answers as missing', () => {
    const r = getProfileCompleteness({ ...full, name: '  ', bio: 'short', answers: MIN_ANSWERS - 1 });
    expect(r.missing).toEqual([
      'your name',
      'a bio (20 characters or more)',
      `at least ${MIN_ANSWERS} questionnaire answers`,
    ]);
    expect(r.next).toEqual({ label: 'Add your name', to: '/profile' });
  });
});
