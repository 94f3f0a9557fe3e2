import { describe, expect, it } from 'vitest';
import {
  BUILDER_STEPS,
  getBuilderStep,
  validateBuilderStep,
  getCompleteness,
  splitList,
  validatePreferences,
  validateProfile,
  type ProfileDraft,
} from './profile-rules.ts';

const base: ProfileDraft = {
  name: 'Ada',
  birthday: '1990-05-01',
  gender: 'woman',
  looking_for: ['man'],
  relationship_goals: 'long-term',
  relationship_status: 'single',
  bio: '',
  interests: [],
  career: '',
  industry: '',
  education_level: '',
  languages: [],
  height: '',
  height_unit: 'cm',
  city: '',
  state: '',
  country: '',
  location_lat: null,
  location_lng: null,
  photos: [],
};
const today = new Date('2026-11-22T12:00:00Z');

describe('validateProfile', () => {
  it('accepts a valid draft', () => {
    expect(validateProfile(base, today)).toEqual({});
  });
  it('mirrors the SQL checks', () => {
    expect(validateProfile({ ...base, birthday: '2008-11-23' }, today)['birthday']).toBe(
      'Members must be at least 18 years old',
    );
    expect(validateProfile({ ...base, birthday: '2008-11-22' }, today)['birthday']).toBeUndefined();
    expect(validateProfile({ ...base, birthday: '1899-12-31' }, today)['birthday']).toBe(
      'Enter a valid date of birth.',
    );
    expect(validateProfile({ ...base, height: '260' }, today)['height']).toBe(
      'Height must be between 100 and 250 cm.',
    );
    expect(validateProfile({ ...base, height: '5.9', height_unit: 'ft' }, today)['height']).toBeUndefined();
    expect(validateProfile({ ...base, height: 'tall' }, today)['height']).toBeDefined();
    expect(validateProfile({ ...base, gender: 'robot' }, today)['gender']).toBeDefined();
    expect(
      validateProfile({ ...base, interests: Array.from({ length: 31 }, (_, i) => `i${i}`) }, today)[
        'interests'
      ],
    ).toBe('At most 30 interests.');
    expect(validateProfile({ ...base, languages: ['x'.repeat(41)] }, today)['languages']).toBeDefined();
    expect(
      validateProfile({ ...base, photos: Array.from({ length: 7 }, (_, i) => `p${i}`) }, today)['photos'],
    ).toBeDefined();
    expect(validateProfile({ ...base, name: '  ' }, today)['name']).toBe('Enter your name.');
    expect(validateProfile({ ...base, bio: 'x'.repeat(2001) }, today)['bio']).toBeDefined();
  });
});

describe('validatePreferences', () => {
  const prefs = { min_age: 25, max_age: 40, genders: [], max_distance_band: '', relationship_goals: [] };
  it('accepts sensible preferences and refuses what SQL refuses', () => {
    expect(validatePreferences(prefs)).toEqual({});
    expect(validatePreferences({ ...prefs, min_age: 17 })['min_age']).toBeDefined();
    expect(validatePreferences({ ...prefs, min_age: 50 })['max_age']).toBeDefined();
    expect(validatePreferences({ ...prefs, max_distance_band: '7 km' })['max_distance_band']).toBeDefined();
    expect(validatePreferences({ ...prefs, genders: ['x'] })['genders']).toBeDefined();
  });
});

describe('completeness and helpers', () => {
  it('counts the steps done', () => {
    expect(getCompleteness(base, 0, false).percent).toBe(42);
    const full = {
      ...base,
      photos: ['a'],
      bio: 'x'.repeat(20),
      interests: ['a', 'b', 'c'],
      city: 'Paris',
      career: 'Chef',
    };
    expect(getCompleteness(full, 10, true)).toEqual({ percent: 100, missing: [] });
  });
  it('splits lists into trimmed, distinct items', () => {
    expect(splitList(' hiking, music ,, hiking')).toEqual(['hiking', 'music']);
  });
});

describe('the profile builder steps', () => {
  it('reads the step from the address, and anything unknown is the first step', () => {
    expect(getBuilderStep('photos')).toBe(1);
    expect(getBuilderStep('questions')).toBe(BUILDER_STEPS.length - 1);
    expect(getBuilderStep(null)).toBe(0);
    expect(getBuilderStep('nope')).toBe(0);
  });

  it('asks the basics for a date of birth and a gender, and only the basics', () => {
    const empty = { ...base, birthday: '', gender: '' };
    expect(validateBuilderStep('basics', empty)).toEqual({
      birthday: 'Enter your date of birth.',
      gender: 'Choose your gender.',
    });
    expect(validateBuilderStep('about', empty)).toEqual({});
    expect(validateBuilderStep('basics', base)).toEqual({});
  });

  it('keeps the save rules on every step', () => {
    expect(validateBuilderStep('basics', { ...base, name: ' ' })['name']).toBe('Enter your name.');
    expect(validateBuilderStep('about', { ...base, bio: 'x'.repeat(2001) })['bio']).toMatch(/2000/);
    expect(validateBuilderStep('basics', { ...base, birthday: '2020-01-01' })['birthday']).toBe(
      'Members must be at least 18 years old',
    );
  });
});
