import { describe, expect, it } from 'vitest';
import { decodeStructuredColumns } from '../../data/connector.ts';
import {
  changedColumns,
  savePreferences,
  saveProfile,
  toPreferenceColumns,
  toProfileColumns,
  type ReplicaWriter,
} from './profile-data.ts';
import type { PreferencesDraft, ProfileDraft } from './profile-rules.ts';

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

/** A device replica holding the member's rows: records the statements each save runs. */
function recordingReplica(rows: { profile: boolean; preferences: boolean }) {
  const statements: { sql: string; params: unknown[] }[] = [];
  let transactions = 0;
  const tx = {
    getOptional: (sql: string) =>
      Promise.resolve(
        (sql.includes('from profiles') ? rows.profile : rows.preferences) ? { id: 'me' } : null,
      ),
    execute: (sql: string, params: unknown[] = []) => {
      statements.push({ sql, params });
      return Promise.resolve({ rowsAffected: 1 });
    },
  };
  const db = {
    writeTransaction: async (fn: (t: typeof tx) => Promise<unknown>) => {
      transactions++;
      return fn(tx);
    },
  } as unknown as ReplicaWriter;
  return { db, statements, transactions: () => transactions };
}

/** The columns an update statement sets, by name. */
function setColumns(statement: { sql: string; params: unknown[] } | undefined): Record<string, unknown> {
  const names = /set (.*) where/
    .exec(statement?.sql ?? '')?.[1]
    ?.split(', ')
    .map((c) => c.replace(' = ?', ''));
  return Object.fromEntries((names ?? []).map((n, i) => [n, statement?.params[i]]));
}

describe('saving writes only what the member changed', () => {
  it('lists the columns whose value differs', () => {
    expect(changedColumns({ a: 1, b: 'x', c: null }, { a: 1, b: 'y', c: null })).toEqual({ b: 'y' });
    expect(changedColumns({ a: 1 }, { a: 1 })).toEqual({});
  });

  it('a profile save sets the changed columns, so a bio written meanwhile elsewhere is not undone', async () => {
    const replica = recordingReplica({ profile: true, preferences: true });
    // The form took its version before the bio was written (the bio is empty in it); the member picks a city.
    const since = {
      ...draft,
      bio: '',
      city: '',
      state: '',
      country: '',
      location_lat: null,
      location_lng: null,
    };
    await saveProfile(
      replica.db,
      'me',
      {
        ...since,
        city: 'London',
        state: 'England',
        country: 'United Kingdom',
        location_lat: 51.5,
        location_lng: -0.1,
      },
      {},
      since,
    );
    const set = setColumns(replica.statements[0]);
    expect(Object.keys(set).sort()).toEqual(
      ['city', 'country', 'location_lat', 'location_lng', 'state', 'updated_at'].sort(),
    );
    expect(set).toMatchObject({ city: 'London', location_lat: '51.5' });
    expect(replica.statements[0]?.params.at(-1)).toBe('me');
  });

  it('a save with nothing changed writes nothing; the completeness mark alone is written', async () => {
    const replica = recordingReplica({ profile: true, preferences: true });
    await saveProfile(replica.db, 'me', draft, {}, draft);
    expect(replica.transactions()).toBe(0);
    await saveProfile(replica.db, 'me', draft, { match_preferences_completed: true }, draft);
    expect(Object.keys(setColumns(replica.statements[0])).sort()).toEqual(
      ['match_preferences_completed', 'updated_at'].sort(),
    );
  });

  it('without the version the form started from, every column is written', async () => {
    const replica = recordingReplica({ profile: true, preferences: true });
    await saveProfile(replica.db, 'me', draft);
    expect(Object.keys(setColumns(replica.statements[0])).sort()).toEqual(
      [...Object.keys(toProfileColumns(draft)), 'updated_at'].sort(),
    );
  });

  it('a profile not yet on this device is a clear error', async () => {
    const replica = recordingReplica({ profile: false, preferences: false });
    await expect(saveProfile(replica.db, 'me', { ...draft, bio: 'New' }, {}, draft)).rejects.toThrow(
      'Your profile has not reached this device yet. Please try again.',
    );
    expect(replica.statements).toEqual([]);
  });

  const prefs: PreferencesDraft = {
    min_age: 25,
    max_age: 40,
    genders: ['man'],
    max_distance_band: '',
    relationship_goals: [],
  };

  it('preferences: the changed columns of an existing row, every column of a new one', async () => {
    const existing = recordingReplica({ profile: true, preferences: true });
    await savePreferences(existing.db, 'me', { ...prefs, min_age: 30 }, prefs);
    expect(Object.keys(setColumns(existing.statements[0])).sort()).toEqual(['min_age', 'updated_at']);
    await savePreferences(existing.db, 'me', prefs, prefs);
    expect(existing.statements).toHaveLength(1);
    const fresh = recordingReplica({ profile: true, preferences: false });
    await savePreferences(fresh.db, 'me', prefs, prefs);
    expect(fresh.statements[0]?.sql).toMatch(
      /^insert into match_preferences \(id, min_age, max_age, genders/,
    );
    expect(fresh.statements[0]?.params).toHaveLength(1 + Object.keys(toPreferenceColumns(prefs)).length + 1);
  });
});
