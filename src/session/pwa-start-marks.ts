// Performance marks of the member area's start, read by bench/offline-start; each is set once per page load.

/**
 * The replica starts opening (the sync engine loads with its chunk, decision 0034), the store is chosen (OPFS,
 * or IndexedDB), the local file is open, and (in parallel) the auth client has restored the stored session; then
 * a screen shows synced rows.
 */
export type StartMark =
  | 'hs:replica-open-start'
  | 'hs:replica-store-checked'
  | 'hs:replica-open'
  | 'hs:session-restored'
  | 'hs:first-synced-screen';

export function markStart(name: StartMark): void {
  if (typeof performance === 'undefined' || performance.getEntriesByName(name, 'mark').length > 0) return;
  performance.mark(name);
}
