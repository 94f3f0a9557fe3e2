// Profile writes go straight to the server through supabase-js (the SQL checks answer at once); the replica then syncs them back.
import { getSupabase } from '../../data/supabase-client.ts';
import type { PreferencesDraft, ProfileDraft } from './profile-rules.ts';

const PHOTO_MAX_SIDE = 1280;
const PHOTO_QUALITY = 0.85;

function toError(e: { message: string; code?: string } | null): Error | undefined {
  if (!e) return undefined;
  // The SQL messages are written for people (e.g. "Members must be at least 18 years old").
  return new Error(
    e.code === '23514' || e.code === '22023' ? e.message : 'Could not save. Please try again.',
  );
}

export async function saveProfile(
  me: string,
  p: ProfileDraft,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const sb = await getSupabase();
  const { error } = await sb
    .from('profiles')
    .update({
      name: p.name.trim(),
      birthday: p.birthday || null,
      gender: p.gender || null,
      looking_for: p.looking_for,
      relationship_goals: p.relationship_goals || null,
      relationship_status: p.relationship_status || null,
      bio: p.bio.trim() || null,
      interests: p.interests,
      career: p.career.trim() || null,
      industry: p.industry.trim() || null,
      education_level: p.education_level || null,
      languages: p.languages,
      height: p.height.trim() === '' ? null : Number(p.height),
      height_unit: p.height_unit,
      city: p.city || null,
      country: p.country || null,
      location_lat: p.location_lat,
      location_lng: p.location_lng,
      photos: p.photos,
      ...extra,
    })
    .eq('id', me);
  const err = toError(error);
  if (err) throw err;
}

export async function savePreferences(me: string, p: PreferencesDraft): Promise<void> {
  const sb = await getSupabase();
  const { error } = await sb.from('match_preferences').upsert({
    user_id: me,
    min_age: p.min_age,
    max_age: p.max_age,
    genders: p.genders,
    max_distance_band: p.max_distance_band || null,
    relationship_goals: p.relationship_goals,
  });
  const err = toError(error);
  if (err) throw err;
}

export interface AnswerDraft {
  question_id: number;
  answer: number;
  acceptable_answers: number[];
  importance: number;
}

export async function saveAnswer(me: string, a: AnswerDraft): Promise<void> {
  if (a.acceptable_answers.length === 0) throw new Error('Choose at least one answer you accept.');
  const sb = await getSupabase();
  const { error } = await sb
    .from('profile_answers')
    .upsert({ user_id: me, ...a }, { onConflict: 'user_id,question_id' });
  const err = toError(error);
  if (err) throw err;
}

/** Scales an image down in the browser (canvas) before upload; the server re-encodes it again and strips metadata. */
export async function resizePhoto(file: File): Promise<Blob> {
  if (!file.type.startsWith('image/')) throw new Error('Choose an image file (JPEG, PNG or WebP).');
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, PHOTO_MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error('Could not read this image.'))),
      'image/jpeg',
      PHOTO_QUALITY,
    ),
  );
}

/** Uploads under the member's own folder (the bucket's policy) and returns the key kept in profiles.photos. */
export async function uploadPhoto(me: string, file: File): Promise<string> {
  const blob = await resizePhoto(file);
  const key = `${me}/${crypto.randomUUID()}.jpg`;
  const sb = await getSupabase();
  const { error } = await sb.storage.from('profile-photos').upload(key, blob, { contentType: 'image/jpeg' });
  if (error) throw new Error('Could not upload this photo. Please try again.');
  return key;
}

export async function removePhotoFile(key: string): Promise<void> {
  const sb = await getSupabase();
  // A file left behind is only wasted space; the profile no longer points at it.
  await sb.storage.from('profile-photos').remove([key]);
}
