// The free daily like limit: the constant, the local count and the server refusal that says it was reached (pure but for the count).
import type { PowerSyncDatabase, UploadRefusal } from '../../data/replica.tsx';

/** Free members' likes in any rolling 24 hours (public.get_daily_like_limit; the server enforces it). */
export const FREE_DAILY_LIKES = 50;

/** True for the upload refusal the SQL like limit raises (decision 12's error key). */
export function isLikeLimitRefusal(refusal: Pick<UploadRefusal, 'table' | 'error'>): boolean {
  return refusal.table === 'user_interactions' && refusal.error.message === 'daily_like_limit_reached';
}

/** Likes this member sent in the last 24 hours, counted on the replica (queued ones included). */
export async function countRecentLikes(db: PowerSyncDatabase, userId: string): Promise<number> {
  const since = new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString();
  const r = await db.get<{ n: number }>(
    `select count(*) as n from user_interactions where user_id = ? and interaction_type = 'like' and created_at > ?`,
    [userId, since],
  );
  return r.n;
}
