// The profile's replica writes: profile, match preferences and questionnaire answers go to the local replica,
// show at once, queue offline and upload in order (decision 0028); the replica keeps arrays as JSON text and
// the connector turns them back into arrays. Photos go to the server: profile-api.ts.
import type { PowerSyncDatabase } from '../../data/replica.tsx';
import { changedColumns } from '../../domain/changed-columns.ts';
import type { PreferencesDraft, ProfileDraft } from './profile-rules.ts';

export { changedColumns };

/** What these writes need of the replica (the open PowerSyncDatabase). */
export type ReplicaWriter = Pick<PowerSyncDatabase, 'writeTransaction'>;

/** A position as the server's numeric(4,1) reads back (one decimal), so an unchanged value uploads nothing. */
function toGridText(v: number | null): string | null {
  return v === null ? null : (Math.round(v * 10) / 10).toFixed(1);
}

/**
 * The profiles columns a draft writes, as the replica stores them (text, JSON text for arrays). Only columns the
 * member may update on the server (supabase/migrations/0001 grants); the replica uploads just the changed ones.
 */
export function toProfileColumns(p: ProfileDraft): Record<string, string | number | null> {
  return {
    name: p.name.trim(),
    birthday: p.birthday || null,
    gender: p.gender || null,
    looking_for: JSON.stringify(p.looking_for),
    relationship_goals: p.relationship_goals || null,
    relationship_status: p.relationship_status || null,
    bio: p.bio.trim() || null,
    interests: JSON.stringify(p.interests),
    career: p.career.trim() || null,
    industry: p.industry.trim() || null,
    education_level: p.education_level || null,
    languages: JSON.stringify(p.languages),
    height: p.height.trim() === '' ? null : p.height.trim(),
    height_unit: p.height_unit,
    city: p.city || null,
    state: p.city ? p.state || null : null,
    country: p.country || null,
    location_lat: toGridText(p.location_lat),
    location_lng: toGridText(p.location_lng),
    photos: JSON.stringify(p.photos),
  };
}

export function toPreferenceColumns(p: PreferencesDraft): Record<string, string | number | null> {
  return {
    min_age: p.min_age,
    max_age: p.max_age,
    genders: JSON.stringify(p.genders),
    max_distance_band: p.max_distance_band || null,
    relationship_goals: JSON.stringify(p.relationship_goals),
  };
}

/**
 * Writes the member's profile changes on the device; they upload when the network allows (a refusal is a
 * toast). `since` is the version the form started from; without it every column is written.
 */
export async function saveProfile(
  db: ReplicaWriter,
  me: string,
  p: ProfileDraft,
  extra: { match_preferences_completed?: boolean } = {},
  since?: ProfileDraft,
): Promise<void> {
  const all = toProfileColumns(p);
  const columns: Record<string, string | number | null> = since
    ? changedColumns(toProfileColumns(since), all)
    : { ...all };
  if (extra.match_preferences_completed !== undefined)
    columns['match_preferences_completed'] = extra.match_preferences_completed ? 1 : 0;
  const names = Object.keys(columns);
  if (names.length === 0) return;
  columns['updated_at'] = new Date().toISOString();
  names.push('updated_at');
  await db.writeTransaction(async (tx) => {
    // An update of a view row counts no changes in SQLite, so look first: the row arrives with the first sync.
    if (!(await tx.getOptional('select id from profiles where id = ?', [me])))
      throw new Error('Your profile has not reached this device yet. Please try again.');
    // Column names come from the fixed lists above, never from input; values are parameters.
    await tx.execute(`update profiles set ${names.map((n) => `${n} = ?`).join(', ')} where id = ?`, [
      ...names.map((n) => columns[n]),
      me,
    ]);
  });
}

/** Records that the builder's steps are done (set once; discovery reads it). */
export async function markProfileComplete(db: ReplicaWriter, me: string): Promise<void> {
  await db.writeTransaction(async (tx) => {
    await tx.execute(
      'update profiles set match_preferences_completed = 1, updated_at = ? where id = ? and match_preferences_completed is not 1',
      [new Date().toISOString(), me],
    );
  });
}

/**
 * Inserts the preferences row the first time (the server keys it by user_id), updates it after: only the
 * columns changed since `since`, the version the form started from (all of them without it).
 */
export async function savePreferences(
  db: ReplicaWriter,
  me: string,
  p: PreferencesDraft,
  since?: PreferencesDraft,
): Promise<void> {
  const all = toPreferenceColumns(p);
  await db.writeTransaction(async (tx) => {
    const existing = await tx.getOptional('select id from match_preferences where id = ?', [me]);
    const columns = existing && since ? changedColumns(toPreferenceColumns(since), all) : { ...all };
    if (Object.keys(columns).length === 0) return;
    columns['updated_at'] = new Date().toISOString();
    const names = Object.keys(columns);
    const values = names.map((n) => columns[n]);
    if (existing)
      await tx.execute(
        `update match_preferences set ${names.map((n) => `${n} = ?`).join(', ')} where id = ?`,
        [...values, me],
      );
    else
      await tx.execute(
        `insert into match_preferences (id, ${names.join(', ')}) values (?, ${names.map(() => '?').join(', ')})`,
        [me, ...values],
      );
  });
}

export interface AnswerDraft {
  question_id: number;
  answer: number;
  acceptable_answers: number[];
  importance: number;
}

/**
 * Writes the member's answers to this device in one transaction (they upload with the queue, so answers
 * given offline are kept): an answer already on the device is updated, a new one inserted.
 */
export async function saveAnswers(
  db: ReplicaWriter,
  me: string,
  answers: readonly AnswerDraft[],
): Promise<void> {
  for (const a of answers)
    if (a.acceptable_answers.length === 0) throw new Error('Choose at least one answer you accept.');
  const now = new Date().toISOString();
  await db.writeTransaction(async (tx) => {
    for (const a of answers) {
      const accepted = JSON.stringify([...a.acceptable_answers].sort((x, y) => x - y));
      const existing = await tx.getOptional<{ id: string }>(
        'select id from profile_answers where user_id = ? and question_id = ?',
        [me, a.question_id],
      );
      if (existing)
        await tx.execute(
          'update profile_answers set answer = ?, acceptable_answers = ?, importance = ?, updated_at = ? where id = ?',
          [a.answer, accepted, a.importance, now, existing.id],
        );
      else
        await tx.execute(
          `insert into profile_answers (id, user_id, question_id, answer, acceptable_answers, importance, created_at, updated_at)
           values (?, ?, ?, ?, ?, ?, ?, ?)`,
          [crypto.randomUUID(), me, a.question_id, a.answer, accepted, a.importance, now, now],
        );
    }
  });
}
