// Another member's profile as the member may see it: their public card from the replica (a match's is always
// there, so it opens offline too), opened from My Matches and a conversation's header. Never the e-mail,
// birthday, address, zip code or exact place: public_profiles holds none of them. The photo strip is shared with
// the likes page's profile of a liker.
import {
  BadgeCheck,
  Briefcase,
  GraduationCap,
  HeartHandshake,
  Languages,
  MapPin,
  Ruler,
  X,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { useQuery } from '../../data/replica.tsx';
import { ChipList } from '../../ui/chip-list.tsx';
import { Modal } from '../../ui/modal.tsx';
import { getMemberFacts, type MemberFactKind } from './member-facts.ts';
import { MemberPhoto, parseList } from './member-photo.tsx';

/** A member's photos side by side, one a screen's width and the next peeking in: a swipe brings it. */
export function MemberPhotoStrip({ name, photos }: { name: string; photos: readonly string[] }) {
  const shown = photos.length > 0 ? photos : [undefined];
  return (
    <ul
      aria-label={`Photos of ${name}`}
      // Two or more always overflow (each is 85% wide): a tab stop lets the keyboard scroll through them.
      tabIndex={shown.length > 1 ? 0 : undefined}
      className="flex snap-x snap-mandatory gap-2 overflow-x-auto px-4 pt-4 [scrollbar-width:none] md:px-6 md:pt-6"
    >
      {shown.map((p, i) => (
        <li key={p ?? i} className={`shrink-0 snap-center ${shown.length > 1 ? 'w-[85%]' : 'w-full'}`}>
          <MemberPhoto
            path={p}
            alt={`Photo ${i + 1} of ${name}`}
            className="aspect-[3/4] max-h-[45dvh] w-full rounded-xl object-cover"
          />
        </li>
      ))}
    </ul>
  );
}

/** A profile dialog's heading: name, age, a verified mark and the city, with the close button beside it. */
export function ProfileHeading({
  id,
  name,
  age,
  verified,
  city,
  onClose,
  children,
}: {
  /** The heading's id, naming the dialog. */
  id: string;
  name: string;
  age: number | null;
  verified: boolean;
  city: string | null;
  onClose: () => void;
  /** More lines under the city (when they liked, say). */
  children?: ReactNode;
}) {
  return (
    <div className="flex items-start justify-between gap-2">
      <div className="min-w-0">
        <h2 id={id} className="flex items-center gap-1 text-2xl font-bold">
          <span className="truncate">
            {name}
            {age ? `, ${age}` : ''}
          </span>
          {verified && (
            <BadgeCheck role="img" aria-label="Verified" className="size-5 shrink-0 text-sky-600" />
          )}
        </h2>
        {city && (
          <p className="flex items-center gap-1 text-sm text-muted">
            <MapPin aria-hidden="true" className="size-4 shrink-0" />
            {city}
          </p>
        )}
        {children}
      </div>
      <button type="button" className="btn-ghost px-2" onClick={onClose}>
        <X aria-hidden="true" className="size-5" />
        <span className="sr-only">Close</span>
      </button>
    </div>
  );
}

const FACT_ICONS: Readonly<Record<MemberFactKind, LucideIcon>> = {
  work: Briefcase,
  education: GraduationCap,
  height: Ruler,
  languages: Languages,
  goal: HeartHandshake,
};

const FACT_NAMES: Readonly<Record<MemberFactKind, string>> = {
  work: 'Work',
  education: 'Education',
  height: 'Height',
  languages: 'Languages',
  goal: 'Looking for',
};

interface PublicCard {
  name: string | null;
  age: number | null;
  photos: string | null;
  bio: string | null;
  interests: string | null;
  career: string | null;
  education_level: string | null;
  languages: string | null;
  height: string | null;
  height_unit: string | null;
  relationship_goals: string | null;
  city: string | null;
  is_verified: number | null;
}

const CARD_SQL = `select name, age, photos, bio, interests, career, education_level, languages, height, height_unit,
  relationship_goals, city, is_verified from public_profiles where id = ?`;

export function MemberProfileDialog({
  memberId,
  fallbackName,
  onClose,
  children,
}: {
  memberId: string;
  /** The name to show before the card is read, or when it is not on this device. */
  fallbackName: string;
  onClose: () => void;
  /** Actions under the profile (Message, say). */
  children?: ReactNode;
}) {
  const { data, isLoading } = useQuery<PublicCard>(CARD_SQL, [memberId]);
  const card = data[0];
  const name = card?.name ?? fallbackName;
  const facts = card
    ? getMemberFacts({
        career: card.career,
        education_level: card.education_level,
        height: card.height,
        height_unit: card.height_unit,
        languages: parseList(card.languages),
        relationship_goals: card.relationship_goals,
      })
    : [];
  return (
    <Modal labelledBy="member-profile-name" onClose={onClose} className="md:max-w-md">
      {card && (
        <div className="-mx-4 -mt-4 mb-4 md:-mx-6 md:-mt-6">
          <MemberPhotoStrip name={name} photos={parseList(card.photos)} />
        </div>
      )}
      <div className="space-y-3">
        <ProfileHeading
          id="member-profile-name"
          name={name}
          age={card?.age ?? null}
          verified={card?.is_verified === 1}
          city={card?.city ?? null}
          onClose={onClose}
        />
        {isLoading ? (
          <p>Loading...</p>
        ) : !card ? (
          <p className="text-muted">This profile is not available.</p>
        ) : (
          <>
            {facts.length > 0 && (
              <ul aria-label={`About ${name}`} className="grid gap-2 text-sm sm:grid-cols-2">
                {facts.map((f) => {
                  const Icon = FACT_ICONS[f.kind];
                  return (
                    <li key={f.kind} className="flex min-w-0 items-start gap-2">
                      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
                      <span className="min-w-0">
                        <span className="sr-only">{FACT_NAMES[f.kind]}: </span>
                        {f.text}
                      </span>
                    </li>
                  );
                })}
              </ul>
            )}
            {card.bio && <p className="text-sm whitespace-pre-line">{card.bio}</p>}
            <ChipList label="Interests" items={parseList(card.interests)} />
          </>
        )}
        {children && <div className="sticky bottom-0 -mx-1 flex gap-2 bg-card px-1 py-2">{children}</div>}
      </div>
    </Modal>
  );
}
