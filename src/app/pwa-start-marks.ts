// Performance marks of the member area's start, read by bench/offline-start; each is set once per page load.

/** In order: the replica starts opening, the sync engine is loaded, the local file is open, a screen shows synced rows. */
export type StartMark =
  'hs:replica-open-start' | 'hs:replica-engine-loaded' | 'hs:replica-open' | 'hs:first-synced-screen';

export function markStart(name: StartMark): void {
  if (typeof performance === 'undefined' || performance.getEntriesByName(name, 'mark').length > 0) return;
  performance.mark(name);
}
