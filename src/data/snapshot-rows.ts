// A screen's rows before and after the replica opens (decision 0093): the rows it showed last on this device
// (its screen snapshot) until its replica query answers, then the replica's; each answer is the next start's
// snapshot. One place for what the match list, the conversation list and the notifications page each did.

import { useEffect, useState } from 'react';
import { useReplicaOpening, type ReplicaQueryResult } from './replica.tsx';
import { readScreenSnapshot, saveScreenSnapshot } from './screen-snapshots.ts';

export interface SnapshotRows<T> {
  /** The rows to show: the replica's once it has answered, else the snapshot's; undefined when neither has any. */
  rows: T[] | undefined;
  /** True once the rows are the replica's answer (not the snapshot's). */
  fromReplica: boolean;
}

/**
 * `replica` (a `useQuery` answer read while the replica may still be opening) with the snapshot named `screen`
 * in its place until it answers. Only `userId`'s snapshot is read; an answer with an error is never saved.
 */
export function useSnapshotRows<T>(
  screen: string,
  userId: string,
  replica: ReplicaQueryResult<T>,
  /** The most rows the snapshot keeps (SNAPSHOT_MAX_ROWS when not given): a deck paints one card. */
  keep?: number,
): SnapshotRows<T> {
  const opening = useReplicaOpening();
  const fromReplica = !opening && !replica.isLoading;
  // Read once: the snapshot is only ever the screen's first paint.
  const [snapshot] = useState(() => readScreenSnapshot<T>(screen, userId));
  useEffect(() => {
    if (fromReplica && !replica.error)
      saveScreenSnapshot(screen, userId, keep === undefined ? replica.data : replica.data.slice(0, keep));
  }, [fromReplica, replica.error, replica.data, screen, userId, keep]);
  return { rows: fromReplica ? replica.data : snapshot, fromReplica };
}
