// Cancels the caller's pending account deletion. No body; answers {success, error}.
import { serveWhenDeno } from '../_shared/serve.ts';
import { json, preflight } from '../_shared/http.ts';
import { createServiceClient, findCaller } from '../_shared/supabase.ts';

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST') return json({ success: false, error: 'Method not allowed' }, 405);
  const user = await findCaller(req);
  if (!user) return json({ success: false, error: 'Not authenticated' }, 401);
  const { data, error } = await createServiceClient()
    .from('account_deletion_requests')
    .update({ status: 'cancelled', cancelled_at: new Date().toISOString() })
    .eq('user_id', user.id)
    .eq('status', 'pending')
    .select('id');
  if (error) throw new Error(`cancelling deletion failed: ${error.message}`);
  if (!data || data.length === 0) return json({ success: false, error: 'No pending account deletion' }, 404);
  return json({ success: true, error: null });
}

export default handler;
serveWhenDeno(handler);
