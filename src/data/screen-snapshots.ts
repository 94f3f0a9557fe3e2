// The rows a screen last showed from the replica, kept on this device so the next start paints them before the
// local database has opened (decision 0093: opening it takes most of an offline start). Read-only copies of
// the member's own replica rows: the same device, the same origin, cleared at sign-out with the replica;
// written under the member's id, and read only for that member. The replica stays the only source of truth:
// a screen shows a snapshot until its first query answers, and never decides anything from it.

import { localStore, removeKeysWithPrefix } from './local-storage.ts';

const PREFIX = 'heartsync.screen.';
/** The most rows a snapshot keeps: more than a screen shows; the rest come with the replica. */
export const SNAPSHOT_MAX_ROWS = 50;

interface StoredSnapshot {
  userId: string;
  rows: unknown[];
}

/** Keeps the first SNAPSHOT_MAX_ROWS rows `screen` showed to `userId`. */
export function saveScreenSnapshot(screen: string, userId: string, rows: readonly unknown[]): void {
  try {
    const stored: StoredSnapshot = { userId, rows: rows.slice(0, SNAPSHOT_MAX_ROWS) };
    localStore()?.setItem(PREFIX + screen, JSON.stringify(stored));
  } catch {
    /* storage full or unavailable: the next start waits for the replica, as without a snapshot */
  }
}

/** The rows `screen` last showed to `userId` on this device, if any (another member's are never returned). */
export function readScreenSnapshot<T>(screen: string, userId: string): T[] | undefined {
  if (!userId) return undefined;
  try {
    const stored = JSON.parse(
      localStore()?.getItem(PREFIX + screen) ?? 'null',
    ) as Partial<StoredSnapshot> | null;
    return stored?.userId === userId && Array.isArray(stored.rows) ? (stored.rows as T[]) : undefined;
  } catch {
    return undefined;
  }
}

/** At sign-out, and when the replica is wiped for another member: every screen's snapshot goes. */
export function clearScreenSnapshots(): void {
  removeKeysWithPrefix(PREFIX);
}
