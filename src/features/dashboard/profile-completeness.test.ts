// The dashboard reads the replica's row into the shared rule: the same figure as My Profile for the same profile.
import { describe, expect, it } from 'vitest';
import { getCompleteness } from '../profile/profile-rules.ts';
import { getProfileCompleteness, type CompletenessInput } from './profile-completeness.ts';

const row: CompletenessInput = {
  name: 'Ann',
  birthday: '1990-01-01',
  gender: 'woman',
  looking_for: '["man"]',
  relationship_goals: 'long-term',
  bio: 'Hi',
  city: 'Oslo',
  career: 'Nurse',
  education_level: null,
  photos: '["a/1.jpg"]',
  interests: '["a","b"]',
  answers: 4,
  has_preferences: 1,
};

describe('dashboard completeness', () => {
  it('agrees with My Profile on the same profile', () => {
    const mine = getCompleteness(
      {
        name: 'Ann',
        birthday: '1990-01-01',
        gender: 'woman',
        looking_for: ['man'],
        relationship_goals: 'long-term',
        relationship_status: '',
        bio: 'Hi',
        interests: ['a', 'b'],
        career: 'Nurse',
        industry: '',
        education_level: '',
        languages: [],
        height: '',
        height_unit: 'cm',
        city: 'Oslo',
        state: '',
        country: '',
        location_lat: null,
        location_lng: null,
        photos: ['a/1.jpg'],
      },
      4,
      true,
    );
    const shown = getProfileCompleteness(row);
    expect(shown.percent).toBe(mine.percent);
    expect(shown.missing).toEqual(mine.missing);
    expect(shown.next).toEqual({ label: 'Write a short bio', to: '/profile' });
  });
  it('treats broken JSON as nothing there', () => {
    expect(getProfileCompleteness({ ...row, photos: 'not json', bio: 'x'.repeat(25) }).next?.label).toBe(
      'Add a photo',
    );
  });
});
