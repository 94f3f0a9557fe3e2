// The likes received, read from the replica (decision 0106: the sync rules bring each like received and the
// liker's public card to it), how many of them are new since the member last looked, and the like, skip and
// "seen" writes to it (decision 0109).
import { useQuery, type PowerSyncDatabase } from '../../data/replica.tsx';
import { getInteractionId } from '../../domain/ids.ts';
import { parseList } from '../profile/member-photo.tsx';

/** How many more likes the page lists each time its end scrolls into view. */
export const LIKES_PAGE_SIZE = 20;

/** One like received, as the page shows it (the shape of the server's get_received_likes rows). */
export interface ReceivedLike {
  id: string;
  liker_id: string;
  name: string | null;
  age: number | null;
  city: string | null;
  bio: string | null;
  interests: string[];
  liker_photos: string[];
  is_verified: boolean;
  created_at: string;
}

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

/**
 * How many of the likes the page lists arrived after the member last looked (profiles.likes_seen_at): the
 * badge on Likes. Times are compared as instants (julianday), not as text: the server's are written
 * "+00:00" with microseconds, the device's "Z" with milliseconds. Parameters: unreadLikesParams.
 */
export const UNREAD_LIKES_SQL = `select count(*) as n
  from user_interactions ui
  join public_profiles pp on pp.id = ui.user_id
  where ui.target_id = ? and ui.interaction_type = 'like'
    and julianday(ui.created_at) > coalesce((select julianday(p.likes_seen_at) from profiles p where p.id = ?), 0)
    and not exists (select 1 from user_interactions back where back.user_id = ? and back.target_id = ui.user_id)
    and not exists (select 1 from blocked_users b where b.blocker_id = ? and b.blocked_id = ui.user_id)`;

/** UNREAD_LIKES_SQL's parameters: the member, four times. */
export function unreadLikesParams(me: string): [string, string, string, string] {
  return [me, me, me, me];
}

/** The newest like received, as the server wrote its time, and whether it came after the member last looked. */
const NEWEST_LIKE_SQL = `select ui.created_at,
    (p.likes_seen_at is null or julianday(ui.created_at) > julianday(p.likes_seen_at)) as unseen
  from user_interactions ui join profiles p on p.id = ui.target_id
  where ui.target_id = ? and ui.interaction_type = 'like'
  order by julianday(ui.created_at) desc limit 1`;

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

/** The new likes' count on the replica (undefined until it has answered); re-read as likes and "seen" change. */
export function useUnreadLikesCount(me: string): number | undefined {
  const { data, isLoading, error } = useQuery<{ n: number }>(UNREAD_LIKES_SQL, unreadLikesParams(me));
  return isLoading || error ? undefined : (data[0]?.n ?? 0);
}

/**
 * The member has seen their likes: a write to their own row on the replica (uploaded when online), so the
 * badge clears at once, offline too; none when no like came after the last look. The time kept is the later
 * of now and the newest like received: a device whose clock runs behind still covers every like it listed,
 * and the newest like's own text is kept (not re-written with fewer digits) so it never counts as newer than
 * itself. The server keeps the later of two devices' values and never one ahead of its clock (migration 0142).
 */
export async function markLikesSeen(db: PowerSyncDatabase, me: string): Promise<void> {
  const newest = await db.getOptional<{ created_at: string; unseen: number }>(NEWEST_LIKE_SQL, [me]);
  // Nothing new since the member last looked: nothing to write (nor upload).
  if (!newest?.unseen) return;
  const now = new Date().toISOString();
  const seen = Date.parse(newest.created_at) > Date.parse(now) ? newest.created_at : now;
  await db.execute(
    `update profiles set likes_seen_at = ?
     where id = ? and (likes_seen_at is null or julianday(likes_seen_at) < julianday(?))`,
    [seen, me, seen],
  );
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
