// Blocking and reporting through the server (they must take effect for both members at once, so they are not queued offline).
import { getSupabase } from '../../data/supabase-client.ts';

export const REPORT_CATEGORIES = [
  { value: 'fake_profile', label: 'Fake profile' },
  { value: 'harassment', label: 'Harassment' },
  { value: 'spam', label: 'Spam' },
  { value: 'underage', label: 'Underage' },
  { value: 'other', label: 'Other' },
] as const;
export type ReportCategory = (typeof REPORT_CATEGORIES)[number]['value'];
export const REPORT_DETAILS_MAX = 2000;
export const BLOCK_REASON_LIKES = 'User blocked from likes';

/** Mirrors the reports table's checks; returns the message to show, or undefined when valid. */
export function findReportError(category: string, details: string): string | undefined {
  if (!REPORT_CATEGORIES.some((c) => c.value === category)) return 'Choose what is wrong.';
  if (details.length > REPORT_DETAILS_MAX) return `Details can be at most ${REPORT_DETAILS_MAX} characters.`;
  if (category === 'other' && details.trim() === '') return 'Tell us briefly what happened.';
  return undefined;
}

export async function blockMember(blockerId: string, blockedId: string, reason: string): Promise<void> {
  const sb = await getSupabase();
  const { error } = await sb
    .from('blocked_users')
    .insert({ blocker_id: blockerId, blocked_id: blockedId, reason });
  // Already blocked counts as done.
  if (error && error.code !== '23505') throw error;
}

/** Files a pending report; from then on both members stop seeing each other (SQL is_hidden_pair). */
export async function reportMember(
  reporterId: string,
  reportedId: string,
  category: ReportCategory,
  details: string,
): Promise<void> {
  const problem = findReportError(category, details);
  if (problem) throw new Error(problem);
  const sb = await getSupabase();
  const { error } = await sb
    .from('reports')
    .insert({ reporter_id: reporterId, reported_id: reportedId, category, details: details.trim() });
  if (error) throw error;
}
