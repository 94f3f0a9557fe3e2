// One value derived from the replica for a part of the screen outside the replica provider (the sidebar's card,
// the unread counts): published from inside it, read anywhere, and kept as a screen snapshot so a page load
// paints the value this device showed last until the replica answers (decision 0093's store, cleared at
// sign-out). As with the rows' snapshots, nothing is decided from it.
import { createStore, useStore } from '../ui/external-store.ts';
import { readScreenSnapshot, saveScreenSnapshot } from './screen-snapshots.ts';

/** A whole count of zero or more, as a snapshot read back must hold one (the unread counts, the dashboard's). */
export const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

export interface SnapshotValue<T> {
  /** The value as the replica holds it now for `me`; undefined when the replica has gone (nothing kept). */
  publish(me: string, value: T | undefined): void;
  /** `me`'s value: the replica's once published, else the one this device showed last, else undefined. */
  read(me: string | undefined): T | undefined;
  /** read(me) in a component, rendered again when a new value is published. */
  useValue(me: string | undefined): T | undefined;
}

export function createSnapshotValue<T>(
  screen: string,
  isValue: (v: unknown) => v is T,
  same: (a: T, b: T) => boolean,
): SnapshotValue<T> {
  const published = createStore<{ me: string; value: T } | undefined>(undefined);
  function read(me: string | undefined): T | undefined {
    if (!me) return undefined;
    const now = published.get();
    if (now?.me === me) return now.value;
    const kept = readScreenSnapshot<unknown>(screen, me)?.[0];
    return isValue(kept) ? kept : undefined;
  }
  return {
    publish(me, value) {
      if (value === undefined) {
        published.set(undefined);
        return;
      }
      const now = published.get();
      if (now?.me === me && same(now.value, value)) return;
      published.set({ me, value });
      saveScreenSnapshot(screen, me, [value]);
    },
    read,
    useValue(me) {
      useStore(published);
      return read(me);
    },
  };
}
