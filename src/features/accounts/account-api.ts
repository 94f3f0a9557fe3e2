// Account status calls: pause, reactivation and scheduled deletion (spec §6, §7), all for the signed-in member.
import { getSupabase } from '../../data/supabase-client.ts';
import { getPauseDuration, type PauseDuration } from '../../domain/account-status-wording.ts';

export interface PauseStatus {
  isPaused: boolean;
  pauseEndDate: Date | null;
}

export interface DeletionStatus {
  requestId: string;
  scheduledFor: Date;
  requestedAt: Date;
  status: string;
}

async function getUserId(): Promise<string> {
  const sb = await getSupabase();
  const { data } = await sb.auth.getSession();
  const id = data.session?.user.id;
  if (!id) throw new Error('Not authenticated');
  return id;
}

export async function fetchPauseStatus(): Promise<PauseStatus> {
  const id = await getUserId();
  const sb = await getSupabase();
  const { data, error } = await sb
    .from('profiles')
    .select('is_paused, pause_end_date')
    .eq('id', id)
    .maybeSingle();
  if (error) throw new Error(error.message);
  const row = data as { is_paused: boolean | null; pause_end_date: string | null } | null;
  return {
    isPaused: row?.is_paused === true,
    pauseEndDate: row?.pause_end_date ? new Date(row.pause_end_date) : null,
  };
}

export async function pauseAccount(duration: PauseDuration): Promise<void> {
  getPauseDuration(duration);
  await getUserId();
  const sb = await getSupabase();
  const { error } = await sb.rpc('pause_account', { duration });
  if (error) throw new Error(error.message);
}

export async function reactivateAccount(): Promise<void> {
  await getUserId();
  const sb = await getSupabase();
  const { error } = await sb.rpc('reactivate_account');
  if (error) throw new Error(error.message);
}

type DeletionRow = { request_id: string; scheduled_for: string; requested_at: string; status: string };

function toDeletionStatus(row: DeletionRow | null | undefined): DeletionStatus | null {
  if (!row || row.status !== 'pending') return null;
  return {
    requestId: row.request_id,
    scheduledFor: new Date(row.scheduled_for),
    requestedAt: new Date(row.requested_at),
    status: row.status,
  };
}

export async function fetchDeletionStatus(): Promise<DeletionStatus | null> {
  await getUserId();
  const sb = await getSupabase();
  const { data, error, status } = await sb.rpc('get_account_deletion_status');
  // A read permission refusal (406) means there is no pending deletion to show.
  if (status === 406) return null;
  if (error) throw new Error(error.message);
  const row = (Array.isArray(data) ? data[0] : data) as DeletionRow | null | undefined;
  return toDeletionStatus(row);
}

interface FunctionAnswer<T> {
  success?: boolean;
  error?: string | null;
  data?: T;
}

async function readFunctionError(error: unknown, fallback: string): Promise<string> {
  // functions-js puts the response in error.context for non-2xx answers.
  const ctx = (error as { context?: Response } | null)?.context;
  if (ctx && typeof ctx.json === 'function') {
    try {
      const body = (await ctx.json()) as FunctionAnswer<unknown>;
      if (body.error) return body.error;
    } catch {
      /* not JSON */
    }
  }
  return fallback;
}

export async function scheduleDeletion(password: string): Promise<DeletionStatus | null> {
  await getUserId();
  const sb = await getSupabase();
  const { data, error } = await sb.functions.invoke<FunctionAnswer<DeletionRow>>('delete-account', {
    body: { password },
  });
  if (error) throw new Error(await readFunctionError(error, 'Failed to schedule account deletion'));
  if (!data?.success) throw new Error(data?.error || 'Failed to schedule account deletion');
  return toDeletionStatus(data.data);
}

export async function cancelDeletion(): Promise<void> {
  await getUserId();
  const sb = await getSupabase();
  const { data, error } = await sb.functions.invoke<FunctionAnswer<unknown>>('cancel-deletion', {
    method: 'POST',
  });
  if (error) throw new Error(await readFunctionError(error, 'Failed to cancel account deletion'));
  if (!data?.success) throw new Error(data?.error || 'Failed to cancel account deletion');
}
