// The settings page's calls to the server: the member's data export (GDPR), made by the export-data function.
import { getSupabase } from '../../data/supabase-client.ts';

/** The member's data as JSON text, ready to save as a file. */
export async function fetchDataExport(): Promise<string> {
  const sb = await getSupabase();
  const { data, error } = await sb.functions.invoke<unknown>('export-data', { method: 'POST' });
  if (error || data === null) throw error ?? new Error('empty export');
  return typeof data === 'string' ? data : JSON.stringify(data, null, 2);
}
