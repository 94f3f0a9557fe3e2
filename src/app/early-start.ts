// Offline cold start (bench/offline-start): a member's replica starts opening and the member area's code
// starts loading from the entry script, before the auth client has restored the session and React has
// rendered the member layout, which used to start them one after the other.
import { REPLICA_OWNER_KEY } from '../data/storage-keys.ts';
import { readStoredSession } from '../data/stored-session.ts';

/**
 * The member whose session this browser holds and whose replica the local file is, if both agree; only
 * then is it worth opening the file before the session is restored. A session that turns out to be ended
 * signs the member out as usual, which clears the replica opened here.
 */
export function storedMemberWithReplica(): string | undefined {
  try {
    const userId = readStoredSession()?.user.id;
    return userId !== undefined && localStorage.getItem(REPLICA_OWNER_KEY) === userId ? userId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts what a returning member's first screen needs, in parallel: the replica (its chunk, the sync
 * engine, the WASM and opening the file) and, through `preload`, the code of the member layout and of the
 * page at the address.
 * Does nothing for a visitor.
 */
export function startMemberAreaEarly(preload: () => void): void {
  const userId = storedMemberWithReplica();
  if (!userId) return;
  void import('../data/replica.tsx')
    .then((m) => m.openReplica(userId))
    .catch((e: unknown) => console.warn('[start] the replica could not open early', e));
  preload();
}
