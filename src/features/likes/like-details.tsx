// A liker's whole profile, opened from their card on the likes page: every photo, the words about them, when
// they liked, and the same answers as the card (Skip, Like back, Block) in words.
import { Ban, Heart, X } from 'lucide-react';
import { ChipList } from '../../ui/chip-list.tsx';
import { Modal } from '../../ui/modal.tsx';
import { MemberPhotoStrip, ProfileHeading } from '../profile/member-profile-dialog.tsx';
import { getLikerName, type LikeActions } from './like-card.tsx';
import type { ReceivedLike } from './likes-data.ts';
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
        <ProfileHeading
          id="like-details-name"
          name={name}
          age={like.age}
          verified={like.is_verified}
          city={like.city}
          onClose={onClose}
        >
          {when && <p className="text-sm font-medium text-primary">{when}</p>}
        </ProfileHeading>
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
