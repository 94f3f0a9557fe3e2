// The profile's calls to the server: photos are scaled down on the device and uploaded to storage (they
// need the network); the replica writes are in profile-data.ts.
import { getSupabase } from '../../data/supabase-client.ts';

const PHOTO_MAX_SIDE = 1280;
const PHOTO_QUALITY = 0.85;

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
