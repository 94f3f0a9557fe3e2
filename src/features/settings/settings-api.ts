// The settings page's calls to the server: the member's data export (GDPR), made by the export-data function.
import { getSupabase } from '../../data/supabase-client.ts';

/** The member's data as JSON text, ready to save as a file. */
export async function fetchDataExport(): Promise<string> {
  const sb = await getSupabase();
  const { data, error } = await sb.functions.invoke<unknown>('export-data', { method: 'POST' });
  if (error || data === null) throw error ?? new Error('empty export');
  return typeof data === 'string' ? data : JSON.stringify(data, null, 2);
}

export interface BlockedMember {
  blocked_id: string;
  /** Their first name; null when they have none (or their account is gone). */
  name: string | null;
  blocked_at: string;
  /** The member also reported them: an unblock does not bring them back. */
  reported: boolean;
}

/** The members this member has blocked, newest first, by first name (0141). */
export async function fetchBlockedMembers(): Promise<BlockedMember[]> {
  const sb = await getSupabase();
  const { data, error } = await sb.rpc('get_blocked_members');
  if (error) throw error;
  return (data ?? []) as BlockedMember[];
}
