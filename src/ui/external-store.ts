// One value outside React that any component reads and any module sets (the active call, Lovy's open state,
// unread counts, toasts, game events): a listener set and useSyncExternalStore, written once.
import { useSyncExternalStore } from 'react';

export interface ExternalStore<T> {
  get: () => T;
  /** Replaces the value and tells every subscriber; the same value again tells nobody. */
  set: (next: T) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createStore<T>(initial: T): ExternalStore<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The store's value in a component, re-rendered when it changes. */
export function useStore<T>(store: ExternalStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.get);
}
