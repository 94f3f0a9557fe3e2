// How this instance's calls connect (issue 18), for signed-in members: {provider: 'webrtc' | 'getstream',
// iceServers, streamApiKey?}. The Stream API key is public by Stream's design; its secret never leaves the
// server (getstream-token signs with it).
import { findEnv } from '../_shared/env.ts';
import { json, preflight } from '../_shared/http.ts';
import { getCallProvider, parseIceServers } from '../_shared/calls.ts';
import { serveWhenDeno } from '../_shared/serve.ts';
import { findCaller } from '../_shared/supabase.ts';

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST' && req.method !== 'GET') return json({ error: 'Method not allowed' }, 405);
  const user = await findCaller(req);
  if (!user) return json({ error: 'User not authenticated' }, 401);
  const provider = getCallProvider();
  return json({
    provider,
    // A broken ICE_SERVERS setting throws: the host answers 500 and logs it for the operator.
    iceServers: parseIceServers(findEnv('ICE_SERVERS')),
    ...(provider === 'getstream' ? { streamApiKey: findEnv('STREAM_API_KEY') } : {}),
  });
}

export default handler;
serveWhenDeno(handler);
