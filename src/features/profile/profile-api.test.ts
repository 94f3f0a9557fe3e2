import { describe, expect, it } from 'vitest';
import { decodeStructuredColumns } from '../../data/connector.ts';
import { toPreferenceColumns, toProfileColumns } from './profile-api.ts';
import type { ProfileDraft } from './profile-rules.ts';

const draft: ProfileDraft = {
  name: '  Ada Lovelace ',
  birthday: '1990-05-01',
  gender: 'woman',
  looking_for: ['man'],
  relationship_goals: '',
  relationship_status: 'single',
  bio: '  ',
  interests: ['chess', 'poetry'],
  career: '',
  industry: '',
  education_level: '',
  languages: [],
  height: ' 170 ',
  height_unit: 'cm',
  city: 'London',
  state: 'England',
  country: 'United Kingdom',
  location_lat: 51.5,
  location_lng: -0.1,
  photos: ['me/a.jpg'],
};

describe('profile writes to the replica', () => {
  it('stores arrays as JSON text, empty fields as null and positions as the server reads them back', () => {
    expect(toProfileColumns(draft)).toMatchObject({
      name: 'Ada Lovelace',
      looking_for: '["man"]',
      relationship_goals: null,
      bio: null,
      interests: '["chess","poetry"]',
      languages: '[]',
      height: '170',
      city: 'London',
      state: 'England',
      location_lat: '51.5',
      location_lng: '-0.1',
      photos: '["me/a.jpg"]',
    });
    expect(toProfileColumns({ ...draft, location_lat: 2, location_lng: 0 })).toMatchObject({
      location_lat: '2.0',
      location_lng: '0.0',
    });
  });

  it('clears the region and position with the city', () => {
    expect(
      toProfileColumns({ ...draft, city: '', country: '', location_lat: null, location_lng: null }),
    ).toMatchObject({ city: null, state: null, country: null, location_lat: null, location_lng: null });
  });

  it('uploads arrays as arrays: every array column is one the connector decodes', () => {
    const up = decodeStructuredColumns('profiles', toProfileColumns(draft))!;
    expect(up['interests']).toEqual(['chess', 'poetry']);
    expect(up['looking_for']).toEqual(['man']);
    expect(up['languages']).toEqual([]);
    expect(up['photos']).toEqual(['me/a.jpg']);
    const prefs = decodeStructuredColumns(
      'match_preferences',
      toPreferenceColumns({
        min_age: 25,
        max_age: 40,
        genders: ['man', 'woman'],
        max_distance_band: '',
        relationship_goals: ['long-term'],
      }),
    )!;
    expect(prefs).toEqual({
      min_age: 25,
      max_age: 40,
      genders: ['man', 'woman'],
      max_distance_band: null,
      relationship_goals: ['long-term'],
    });
  });
});
