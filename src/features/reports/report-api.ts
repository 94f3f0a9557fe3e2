// Blocking through the replica (decision 0108: it takes effect on this device at once, offline too, and on the
// server as soon as it uploads) and reporting through the server (a report waits for no queue).
import type { PowerSyncDatabase } from '../../data/replica.tsx';
import { getSupabase } from '../../data/supabase-client.ts';
import { getBlockId } from '../../domain/ids.ts';

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

/**
 * Blocks `blockedId` with `reason`: written to the replica, where every screen's query leaves the member out at
 * once, and queued for upload; the server then ends the pair's match and likes (0050). Already blocked counts
 * as done.
 */
export async function blockMember(
  db: PowerSyncDatabase,
  blockerId: string,
  blockedId: string,
  reason: string,
): Promise<void> {
  await db.execute(
    `insert or ignore into blocked_users (id, blocker_id, blocked_id, reason, created_at) values (?, ?, ?, ?, ?)`,
    [getBlockId(blockerId, blockedId), blockerId, blockedId, reason, new Date().toISOString()],
  );
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
