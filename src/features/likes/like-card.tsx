// One like on the likes page: the liker's photo with their name on it (a tap shows their whole profile), and
// the answers under it: Skip, Like back, and the rarer ones (View profile, Block) in the More menu.
import { BadgeCheck, Ban, Heart, Images, MapPin, User, X } from 'lucide-react';
import { MoreMenu } from '../../ui/more-menu.tsx';
import { MemberPhoto } from '../profile/member-photo.tsx';
import type { ReceivedLike } from './likes-data.ts';
import { isNewLike } from './like-when.ts';

export interface LikeActions {
  onView: (like: ReceivedLike) => void;
  onLikeBack: (like: ReceivedLike) => void;
  onSkip: (like: ReceivedLike) => void;
  onBlock: (like: ReceivedLike) => void;
}

export function getLikerName(like: ReceivedLike): string {
  return like.name ?? 'Member';
}

export function LikeCard({ like, actions }: { like: ReceivedLike; actions: LikeActions }) {
  const name = getLikerName(like);
  const photos = like.liker_photos;
  return (
    <li className="card relative flex flex-col p-0" data-testid="received-like">
      {/* Only the photo is clipped to the card's corners: the More menu opens out of the card. */}
      <div className="relative aspect-[3/4] overflow-hidden rounded-t-xl bg-subtle">
        <MemberPhoto
          path={photos[0]}
          alt={`Photo 1 of ${name}`}
          className="absolute inset-0 size-full object-cover"
        />
        {/* The whole photo opens the profile; a sibling of the photo, so the photo keeps its own name. */}
        <button
          type="button"
          className="absolute inset-0 z-10 focus-visible:ring-2 focus-visible:ring-primary focus-visible:outline-none focus-visible:ring-inset"
          aria-label={`View ${name}'s profile`}
          onClick={() => actions.onView(like)}
        />
        {isNewLike(like.created_at) && (
          <span className="absolute top-2 left-2 rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-primary-fg shadow">
            New
          </span>
        )}
        {photos.length > 1 && (
          <span className="absolute top-2 right-2 inline-flex items-center gap-1 rounded-full bg-black/60 px-2 py-0.5 text-xs font-medium text-white">
            <Images aria-hidden="true" className="size-3.5" />
            {photos.length}
            <span className="sr-only">photos</span>
          </span>
        )}
        <div className="pointer-events-none absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/80 via-black/40 to-transparent p-3 pt-10 text-white">
          <h2 className="flex items-center gap-1 font-semibold [text-shadow:0_1px_2px_rgb(0_0_0/0.5)]">
            <span className="truncate">
              {name}
              {like.age ? `, ${like.age}` : ''}
            </span>
            {like.is_verified && (
              <BadgeCheck role="img" aria-label="Verified" className="size-4 shrink-0 text-sky-300" />
            )}
          </h2>
          {like.city && (
            <p className="flex items-center gap-1 text-xs text-white/90">
              <MapPin aria-hidden="true" className="size-3 shrink-0" />
              <span className="truncate">{like.city}</span>
            </p>
          )}
        </div>
      </div>
      {/* Round buttons on a phone's narrow card; where the card has room, Like back says so in words too. */}
      <div className="flex items-center justify-between gap-1 p-2">
        <button
          type="button"
          className="btn-secondary size-11 shrink-0 rounded-full p-0"
          aria-label="Skip"
          title="Skip"
          onClick={() => actions.onSkip(like)}
        >
          <X aria-hidden="true" className="size-5 shrink-0" />
        </button>
        <button
          type="button"
          className="btn-primary size-11 shrink-0 rounded-full p-0 whitespace-nowrap lg:h-11 lg:w-auto lg:flex-1 lg:shrink lg:px-3"
          aria-label="Like back"
          title="Like back"
          onClick={() => actions.onLikeBack(like)}
        >
          <Heart aria-hidden="true" className="size-5 shrink-0" />
          <span aria-hidden="true" className="hidden lg:inline">
            Like back
          </span>
        </button>
        <MoreMenu
          label={`More actions for ${name}`}
          items={[
            { icon: User, label: 'View profile', onSelect: () => actions.onView(like) },
            { icon: Ban, label: 'Block', onSelect: () => actions.onBlock(like) },
          ]}
        />
      </div>
    </li>
  );
}
