// Performance marks of the member area's start, read by bench/offline-start; each is set once per page load.

/**
 * The replica starts opening (the sync engine loads with its chunk, decision 0034), the store is chosen (OPFS,
 * or IndexedDB), the local file is open, and (in parallel) the auth client has restored the stored session;
 * the first screen shows the member's rows (from its snapshot of the last start, or from the replica if that
 * answers first: decision 0093), and a screen shows rows read from the replica.
 */
export type StartMark =
  | 'hs:replica-open-start'
  | 'hs:replica-store-checked'
  | 'hs:replica-open'
  | 'hs:session-restored'
  | 'hs:first-screen'
  | 'hs:first-synced-screen';

/** `detail` goes with the mark (e.g. how many rows the screen showed), for the bench to check. */
export function markStart(name: StartMark, detail?: Record<string, unknown>): void {
  if (typeof performance === 'undefined' || performance.getEntriesByName(name, 'mark').length > 0) return;
  performance.mark(name, detail ? { detail } : undefined);
}
