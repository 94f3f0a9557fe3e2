// The member's own name and first photo for the sidebar, which sits outside the replica provider: published
// from the member's row on the replica (member-background.tsx), so a saved change shows at once, offline too;
// until the replica answers, the card this device showed last (decision 0110).
import { createSnapshotValue } from '../../data/snapshot-value.ts';

export interface OwnCard {
  name: string | null;
  /** The storage path of the first photo, if any. */
  photo: string | null;
}

const isTextOrNull = (v: unknown) => v === null || typeof v === 'string';

const ownCard = createSnapshotValue<OwnCard>(
  'own-card',
  (v): v is OwnCard =>
    typeof v === 'object' &&
    v !== null &&
    isTextOrNull((v as OwnCard).name) &&
    isTextOrNull((v as OwnCard).photo),
  (a, b) => a.name === b.name && a.photo === b.photo,
);

export const publishOwnCard = ownCard.publish;
export const useOwnCard = ownCard.useValue;
