// Whether Lovy's panel is open: the launcher in the header and the panel (loaded with the replica) share it.
import { useSyncExternalStore } from 'react';

let open = false;
const listeners = new Set<() => void>();

export function setLovyOpen(next: boolean): void {
  if (next === open) return;
  open = next;
  for (const l of listeners) l();
}

export function useLovyOpen(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => open,
  );
}
