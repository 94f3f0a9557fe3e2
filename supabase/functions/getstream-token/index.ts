// The spec's getstream-token (§7): body {user_id}; answers {token} for the video provider. The user_id must be
// the caller's own, the caller must be premium (calls are; can_video_call decides the pair), and the API secret
// stays here. 401 without a session, 400 without a user_id, 403 another member's id or no premium, 503 when
// Stream is not configured on this instance.
import { findEnv } from '../_shared/env.ts';
import { findJsonObject, findBearerToken, json, preflight } from '../_shared/http.ts';
import { signStreamToken } from '../_shared/calls.ts';
import { serveWhenDeno } from '../_shared/serve.ts';
import { createCallerClient, findCaller } from '../_shared/supabase.ts';

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405);
  const user = await findCaller(req);
  if (!user) return json({ error: 'User not authenticated' }, 401);
  const body = await findJsonObject(req);
  const userId = body?.['user_id'];
  if (typeof userId !== 'string' || userId.length === 0) return json({ error: 'user_id is required' }, 400);
  if (userId !== user.id) return json({ error: 'A token is only issued for your own user id' }, 403);
  const apiKey = findEnv('STREAM_API_KEY');
  const secret = findEnv('STREAM_API_SECRET');
  if (!apiKey || !secret) return json({ error: 'Video calls through Stream are not configured here' }, 503);
  const { data, error } = await createCallerClient(findBearerToken(req)!).rpc('my_entitlement');
  if (error) throw new Error(`reading the entitlement failed: ${error.message}`);
  const row = (Array.isArray(data) ? data[0] : data) as { is_premium?: boolean } | undefined;
  if (!row?.is_premium)
    return json({ error: 'Both users must have a premium subscription to start a video call.' }, 403);
  return json({ token: await signStreamToken(user.id, secret), api_key: apiKey, user_id: user.id });
}

export default handler;
serveWhenDeno(handler);
