// The likes received, read from the replica (decision 0106: the sync rules bring each like received and the
// liker's public card to it), and the like and skip writes to it. The unread count and mark-seen are the
// server's: likes-api.ts.
import { useQuery, type PowerSyncDatabase } from '../../data/replica.tsx';
import { getInteractionId } from '../../domain/ids.ts';
import { parseList } from '../profile/member-photo.tsx';
import type { ReceivedLike } from './likes-api.ts';

/** One like received as the replica holds it: lists are JSON text, flags 0 or 1. */
export interface ReceivedLikeRow extends Omit<ReceivedLike, 'interests' | 'liker_photos' | 'is_verified'> {
  interests: string | null;
  photos: string | null;
  is_verified: number | null;
}

/**
 * The likes received that this member has not answered (a like back or skip, possibly still queued offline)
 * and whose liker they have not blocked, newest first: what the server's get_received_likes answers, read
 * from this device. A liker whose card has not synced yet waits for it (as the server's join does).
 */
export const RECEIVED_LIKES_SQL = `select ui.id, ui.user_id as liker_id, pp.name, pp.age, pp.city, pp.bio,
    pp.interests, pp.photos, pp.is_verified, ui.created_at
  from user_interactions ui
  join public_profiles pp on pp.id = ui.user_id
  where ui.target_id = ? and ui.interaction_type = 'like'
    and not exists (select 1 from user_interactions back where back.user_id = ? and back.target_id = ui.user_id)
    and not exists (select 1 from blocked_users b where b.blocker_id = ? and b.blocked_id = ui.user_id)
  order by ui.created_at desc, ui.id
  limit ?`;

/** RECEIVED_LIKES_SQL's parameters: the member three times, then the page's size. */
export function receivedLikesParams(me: string, limit: number): [string, string, string, number] {
  return [me, me, me, limit];
}

/** The card a replica row stands for. */
export function toReceivedLike(row: ReceivedLikeRow): ReceivedLike {
  return {
    id: row.id,
    liker_id: row.liker_id,
    name: row.name,
    age: row.age,
    city: row.city,
    bio: row.bio,
    interests: parseList(row.interests),
    liker_photos: parseList(row.photos),
    is_verified: row.is_verified === 1,
    created_at: row.created_at,
  };
}

/**
 * The first `limit` likes `me` received and has not answered, from the replica; re-read as likes, answers,
 * blocks and cards change. Empty before this device's first sync counts as loading, not as "no likes".
 */
export function useReceivedLikes(me: string, limit: number) {
  return useQuery<ReceivedLikeRow>(RECEIVED_LIKES_SQL, receivedLikesParams(me, limit), {
    emptyMeansLoading: true,
  });
}

/**
 * Writes a like or skip to the replica with the pair's deterministic id: it shows at once, queues
 * offline and uploads later; two devices sending the same one land on one row.
 */
export async function writeInteraction(
  db: PowerSyncDatabase,
  userId: string,
  targetId: string,
  type: 'like' | 'skip',
): Promise<void> {
  await db.execute(
    `insert or ignore into user_interactions (id, user_id, target_id, interaction_type, created_at)
     values (?, ?, ?, ?, ?)`,
    [getInteractionId(userId, targetId), userId, targetId, type, new Date().toISOString()],
  );
}
