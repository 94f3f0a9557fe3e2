// The member's own name and first photo for the sidebar, which sits outside the replica provider: published
// from the member's row on the replica (member-background.tsx), so a saved change shows at once, offline too;
// until the replica answers, the card this device showed last (a screen snapshot, cleared at sign-out).
import { readScreenSnapshot, saveScreenSnapshot } from '../../data/screen-snapshots.ts';
import { createStore, useStore } from '../../ui/external-store.ts';

export interface OwnCard {
  name: string | null;
  /** The storage path of the first photo, if any. */
  photo: string | null;
}

/** The screen snapshot's name (screen-snapshots.ts). */
const SNAPSHOT = 'own-card';

const published = createStore<{ me: string; card: OwnCard } | undefined>(undefined);

/** The card as the replica holds it now; undefined when the replica has gone (sign-out, another member). */
export function publishOwnCard(me: string, card: OwnCard | undefined): void {
  const now = published.get();
  if (!card) {
    published.set(undefined);
    return;
  }
  if (now?.me === me && now.card.name === card.name && now.card.photo === card.photo) return;
  published.set({ me, card });
  saveScreenSnapshot(SNAPSHOT, me, [card]);
}

/** `me`'s card: from the replica once it has answered, else the one this device showed last, else undefined. */
export function useOwnCard(me: string | undefined): OwnCard | undefined {
  const value = useStore(published);
  if (!me) return undefined;
  if (value?.me === me) return value.card;
  return readScreenSnapshot<OwnCard>(SNAPSHOT, me)?.[0];
}
