// Whether Lovy's panel is open: the launcher in the header and the panel (loaded with the replica) share it.
import { createStore, useStore } from '../../ui/external-store.ts';

const open = createStore(false);

export function setLovyOpen(next: boolean): void {
  open.set(next);
}

export function useLovyOpen(): boolean {
  return useStore(open);
}
