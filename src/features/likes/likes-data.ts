// The like and skip writes to the replica (the received likes and their counts come from the server:
// likes-api.ts).
import type { PowerSyncDatabase } from '../../data/replica.tsx';
import { getInteractionId } from '../../domain/ids.ts';

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
