// Schedules the caller's account deletion after re-checking their password; the server's job (or pg_cron
// when hosted) deletes the account when the grace period ends. Body {password}; answers {success, error, data}.
import { findEnv } from '../_shared/env.ts';
import { serveWhenDeno } from '../_shared/serve.ts';
import { findJsonObject, json, preflight } from '../_shared/http.ts';
import { checkPassword } from '../_shared/password.ts';
import { createServiceClient, findCaller } from '../_shared/supabase.ts';

const DEFAULT_GRACE_DAYS = 30;
const MAX_PASSWORD_LENGTH = 1024;

interface DeletionRow {
  id: string;
  scheduled_for: string;
  requested_at: string;
  status: string;
}

const fail = (error: string, status: number) => json({ success: false, error, data: null }, status);

export function getGraceDays(): number {
  const raw = findEnv('ACCOUNT_DELETION_GRACE_DAYS');
  const n = raw === undefined || raw === '' ? DEFAULT_GRACE_DAYS : Number(raw);
  return Number.isInteger(n) && n >= 0 && n <= 365 ? n : DEFAULT_GRACE_DAYS;
}

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST') return fail('Method not allowed', 405);
  const user = await findCaller(req);
  if (!user) return fail('Not authenticated', 401);
  const body = await findJsonObject(req);
  const password = body?.['password'];
  if (typeof password !== 'string' || password.length === 0 || password.length > MAX_PASSWORD_LENGTH)
    return fail('Password is required', 400);
  if (!user.email) return fail('This account has no e-mail address to confirm the password with', 400);

  // Never through the caller's own session: in process when the host offers it, else a separate sign-in.
  const check = await checkPassword(user, password);
  if (check === 'rate_limited') return fail('Too many attempts. Please wait and try again.', 429);
  if (check !== 'ok') return fail('Incorrect password', 403);

  const service = createServiceClient();
  const columns = 'id, scheduled_for, requested_at, status';
  const findPending = () =>
    service
      .from('account_deletion_requests')
      .select(columns)
      .eq('user_id', user.id)
      .eq('status', 'pending')
      .maybeSingle<DeletionRow>();
  const existing = await findPending();
  if (existing.error) throw new Error(`reading deletion request failed: ${existing.error.message}`);
  let row = existing.data;
  if (!row) {
    const requestedAt = new Date();
    const scheduledFor = new Date(requestedAt.getTime() + getGraceDays() * 24 * 3600 * 1000);
    const inserted = await service
      .from('account_deletion_requests')
      .insert({
        user_id: user.id,
        status: 'pending',
        requested_at: requestedAt.toISOString(),
        scheduled_for: scheduledFor.toISOString(),
      })
      .select(columns)
      .single<DeletionRow>();
    if (inserted.error?.code === '23505') {
      // A parallel request scheduled it first: answer with that one.
      const again = await findPending();
      if (again.error || !again.data) throw new Error('deletion request vanished after a conflict');
      row = again.data;
    } else if (inserted.error) {
      throw new Error(`scheduling deletion failed: ${inserted.error.message}`);
    } else {
      row = inserted.data;
    }
  }
  return json({
    success: true,
    error: null,
    data: {
      request_id: row.id,
      scheduled_for: row.scheduled_for,
      requested_at: row.requested_at,
      status: row.status,
    },
  });
}

export default handler;
serveWhenDeno(handler);
