// The messages' calls to the server: chat photos go straight to storage (only the message itself is queued
// in the replica) and are shown through short-lived signed URLs.
import { getSupabase } from '../../data/supabase-client.ts';

const CHAT_MEDIA_BUCKET = 'chat-media';
/** Chat media URLs live 10 minutes (the server's limit for members' media). */
const CHAT_MEDIA_URL_SECONDS = 600;

/** A signed URL of a chat photo, valid for 10 minutes. */
export async function signChatMedia(path: string): Promise<string> {
  const sb = await getSupabase();
  const { data, error } = await sb.storage
    .from(CHAT_MEDIA_BUCKET)
    .createSignedUrl(path, CHAT_MEDIA_URL_SECONDS);
  if (error) throw error;
  return data.signedUrl;
}

/** Uploads a photo under the conversation and the sender (the bucket's policy); returns its path. */
export async function uploadChatPhoto(conversationId: string, me: string, file: File): Promise<string> {
  const sb = await getSupabase();
  const ext = file.type.split('/')[1] ?? 'jpg';
  const path = `${conversationId}/${me}/${crypto.randomUUID()}.${ext}`;
  const { error } = await sb.storage.from(CHAT_MEDIA_BUCKET).upload(path, file, { contentType: file.type });
  if (error) throw error;
  return path;
}
