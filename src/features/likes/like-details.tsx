// A liker's whole profile, opened from their card on the likes page: every photo, the words about them, when
// they liked, and the same answers as the card (Skip, Like back, Block) in words.
import { BadgeCheck, Ban, Heart, MapPin, X } from 'lucide-react';
import { ChipList } from '../../ui/chip-list.tsx';
import { Modal } from '../../ui/modal.tsx';
import { MemberPhotoStrip } from '../profile/member-profile-dialog.tsx';
import { getLikerName, type LikeActions } from './like-card.tsx';
import type { ReceivedLike } from './likes-api.ts';
import { describeLikeWhen } from './like-when.ts';

export function LikeDetails({
  like,
  actions,
  onClose,
}: {
  like: ReceivedLike;
  actions: Omit<LikeActions, 'onView'>;
  onClose: () => void;
}) {
  const name = getLikerName(like);
  const when = describeLikeWhen(like.created_at);
  return (
    <Modal labelledBy="like-details-name" onClose={onClose} className="md:max-w-md">
      <div className="-mx-4 -mt-4 mb-4 md:-mx-6 md:-mt-6">
        <MemberPhotoStrip name={name} photos={like.liker_photos} />
      </div>
      <div className="space-y-3">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 id="like-details-name" className="flex items-center gap-1 text-2xl font-bold">
              <span className="truncate">
                {name}
                {like.age ? `, ${like.age}` : ''}
              </span>
              {like.is_verified && (
                <BadgeCheck role="img" aria-label="Verified" className="size-5 shrink-0 text-sky-600" />
              )}
            </h2>
            {like.city && (
              <p className="flex items-center gap-1 text-sm text-muted">
                <MapPin aria-hidden="true" className="size-4 shrink-0" />
                {like.city}
              </p>
            )}
            {when && <p className="text-sm font-medium text-primary">{when}</p>}
          </div>
          <button type="button" className="btn-ghost px-2" onClick={onClose}>
            <X aria-hidden="true" className="size-5" />
            <span className="sr-only">Close</span>
          </button>
        </div>
        {like.bio && <p className="text-sm whitespace-pre-line">{like.bio}</p>}
        <ChipList label="Interests" items={like.interests} />
        {/* The answers stay in view while a long profile scrolls under them. */}
        <div className="sticky bottom-0 -mx-1 flex gap-2 bg-card px-1 py-2">
          <button type="button" className="btn-secondary flex-1" onClick={() => actions.onSkip(like)}>
            <X aria-hidden="true" className="size-4" />
            Skip
          </button>
          <button type="button" className="btn-primary flex-1" onClick={() => actions.onLikeBack(like)}>
            <Heart aria-hidden="true" className="size-4" />
            Like back
          </button>
        </div>
        <button
          type="button"
          className="btn-ghost mx-auto flex text-muted"
          onClick={() => actions.onBlock(like)}
        >
          <Ban aria-hidden="true" className="size-4" />
          Block {name}
        </button>
      </div>
    </Modal>
  );
}
