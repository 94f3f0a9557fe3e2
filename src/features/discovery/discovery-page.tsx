// /find-matches: the ranked deck (kept locally), like/skip by buttons and keys, block/report, filters and the upgrade prompt.
// It paints before the replica has opened (decision 0107): the cards this device showed last, which wait for the
// replica's own deck before they take a like or a skip; a fresh deck is asked of the server meanwhile.
import { Heart, RotateCcw, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { useAuth } from '../../session/auth-context.tsx';
import { isOnline, onNetworkChange } from '../../data/network.ts';
import {
  onReplicaCaughtUp,
  openReplica,
  usePendingIds,
  useQuery,
  useSyncConnected,
} from '../../data/replica.tsx';
import { useSnapshotRows } from '../../data/snapshot-rows.ts';
import { ChipList } from '../../ui/chip-list.tsx';
import { useOfflineNotice } from '../../ui/use-offline-notice.ts';
import { useScrollable } from '../../ui/use-scrollable.ts';
import { DISTANCE_BANDS } from '../../domain/distance-band.ts';
import { getInteractionId } from '../../domain/ids.ts';
import { getLabel } from '../../domain/labels.ts';
import { toast } from '../../ui/toast-store.ts';
import { useLikeLimit } from '../likes/like-limit-prompt.tsx';
import { writeInteraction } from '../likes/likes-data.ts';
import { MemberPhoto, parseList } from '../profile/member-photo.tsx';
import { blockMember } from '../reports/report-api.ts';
import { BlockConfirmDialog, ReportDialog } from '../reports/report-dialog.tsx';
import { describeAgeRange, getDistanceText, getWhyYouMatch, parseExplanation } from './card-text.ts';
import { SwipeCard } from './swipe-card.tsx';
import {
  DECK_INPUTS_SQL,
  DeckRefreshScheduler,
  findSettledDeckInputsKey,
  getDeckInputsKey,
  type DeckInputsRow,
} from './deck-inputs.ts';
import {
  GENDERS,
  GOALS,
  findFilterError,
  hideFromDeck,
  refreshDeck,
  type DeckFilters,
  type DeckRow,
} from './deck.ts';

const BLOCK_REASON_DISCOVERY = 'User blocked from discovery';
/** The cards the deck's snapshot keeps for the next start: the one on top and the two under it. */
const DECK_SNAPSHOT_CARDS = 3;
const NO_CARDS: DeckRow[] = [];

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName) || el.isContentEditable);
}

/** The saved preferences the deck uses when no filter is set, in words. */
function describeSaved(saved: DeckInputsRow | undefined): string {
  if (!saved) return '';
  const parts: string[] = [];
  parts.push(describeAgeRange(saved.min_age, saved.max_age));
  if (saved.max_distance_band) parts.push(getLabel(saved.max_distance_band).toLowerCase());
  // Without saved preferences the deck follows the profile's "Looking for" (0128).
  const genders = parseList(saved.has_prefs ? saved.genders : saved.looking_for);
  parts.push(genders.length ? genders.map(getLabel).join(', ') : 'everyone');
  return parts.join(' · ');
}

function Filters({
  initial,
  saved,
  onApply,
}: {
  initial: DeckFilters;
  /** The member's saved preferences (what applies where no filter is set). */
  saved: DeckInputsRow | undefined;
  onApply: (f: DeckFilters) => void;
}) {
  const [minAge, setMinAge] = useState(initial.minAge?.toString() ?? '');
  const [maxAge, setMaxAge] = useState(initial.maxAge?.toString() ?? '');
  const [band, setBand] = useState(initial.maxDistanceBand ?? '');
  const [genders, setGenders] = useState<string[]>(initial.genders ?? []);
  const [goals, setGoals] = useState<string[]>(initial.goals ?? []);
  const [error, setError] = useState<string>();

  function submit(e: FormEvent) {
    e.preventDefault();
    const f: DeckFilters = {
      ...(minAge ? { minAge: Number(minAge) } : {}),
      ...(maxAge ? { maxAge: Number(maxAge) } : {}),
      ...(band ? { maxDistanceBand: band } : {}),
      genders,
      goals,
    };
    const problem = findFilterError(f);
    setError(problem);
    if (!problem) onApply(f);
  }

  const toggle = (list: string[], set: (l: string[]) => void, v: string) =>
    set(list.includes(v) ? list.filter((x) => x !== v) : [...list, v]);

  return (
    <details className="card">
      <summary className="cursor-pointer font-medium">
        Filters
        {saved && (
          <span className="ml-2 text-sm font-normal text-muted">
            Your preferences: {describeSaved(saved)}
          </span>
        )}
      </summary>
      <form className="mt-3 grid gap-3 sm:grid-cols-2" onSubmit={submit}>
        <label>
          <span className="text-sm">Minimum age</span>
          <input
            className="input w-full"
            type="number"
            min={18}
            max={120}
            placeholder={saved?.min_age?.toString() ?? '18'}
            value={minAge}
            onChange={(e) => setMinAge(e.target.value)}
          />
        </label>
        <label>
          <span className="text-sm">Maximum age</span>
          <input
            className="input w-full"
            type="number"
            min={18}
            max={120}
            placeholder={saved?.max_age?.toString() ?? '120'}
            value={maxAge}
            onChange={(e) => setMaxAge(e.target.value)}
          />
        </label>
        <label>
          <span className="text-sm">Distance</span>
          <select className="input w-full" value={band} onChange={(e) => setBand(e.target.value)}>
            <option value="">
              {saved?.max_distance_band
                ? `My preference (${getLabel(saved.max_distance_band)})`
                : 'My preference'}
            </option>
            {DISTANCE_BANDS.map((b) => (
              <option key={b} value={b}>
                {getLabel(b)}
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend className="text-sm">Show me</legend>
          {GENDERS.map((g) => (
            <label key={g} className="mr-3 inline-flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={genders.includes(g)}
                onChange={() => toggle(genders, setGenders, g)}
              />
              {getLabel(g)}
            </label>
          ))}
        </fieldset>
        <fieldset className="sm:col-span-2">
          <legend className="text-sm">Looking for</legend>
          {GOALS.map((g) => (
            <label key={g} className="mr-3 inline-flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={goals.includes(g)}
                onChange={() => toggle(goals, setGoals, g)}
              />
              {getLabel(g)}
            </label>
          ))}
        </fieldset>
        {error && (
          <p role="alert" className="text-sm text-red-700 sm:col-span-2 dark:text-red-400">
            {error}
          </p>
        )}
        <button type="submit" className="btn-primary sm:col-span-2">
          Apply filters
        </button>
      </form>
    </details>
  );
}

function Card({ row }: { row: DeckRow }) {
  const photos = parseList(row.photos);
  const [shown, setShown] = useState(0);
  const reasons = getWhyYouMatch(parseExplanation(row.explanation));
  const distance = getDistanceText(row.distance_band);
  const interests = parseList(row.interests);
  const name = row.name ?? 'Member';
  const [aboutRef, aboutScrolls] = useScrollable<HTMLDivElement>(row);
  return (
    // On a laptop the photo and the words about the member stand side by side (as Bumble's web app does),
    // so the compatibility line and the reasons show above the actions without a scroll; on a phone they
    // follow the photo, as in every dating app.
    <article
      className="card overflow-hidden p-0 lg:grid lg:grid-cols-2"
      aria-label={`${name}${row.age ? `, ${row.age}` : ''}`}
      data-testid="discovery-card"
      data-member-id={row.id}
    >
      <div className="relative">
        {/* At most 60% of the screen's height on a phone; a portrait photo beside the words on a laptop. */}
        <MemberPhoto
          path={photos[shown]}
          alt={`Photo of ${name}`}
          className="aspect-square max-h-[60dvh] w-full object-cover lg:aspect-[4/5] lg:h-full lg:max-h-[calc(100dvh-19rem)]"
        />
        {photos.length > 1 && (
          <>
            {/* Tap the photo's left or right side for the previous or next photo, as in every dating app. */}
            <button
              type="button"
              aria-label="Previous photo"
              className="absolute inset-y-0 left-0 w-1/3"
              onClick={() => setShown((i) => Math.max(0, i - 1))}
            />
            <button
              type="button"
              aria-label="Next photo"
              className="absolute inset-y-0 right-0 w-1/3"
              onClick={() => setShown((i) => Math.min(photos.length - 1, i + 1))}
            />
          </>
        )}
        {photos.length > 1 && (
          <div className="absolute inset-x-0 top-2 flex justify-center gap-1">
            {photos.map((p, i) => (
              <button
                key={p}
                type="button"
                aria-label={`Show photo ${i + 1}`}
                aria-pressed={i === shown}
                className={`h-2 w-6 rounded ${i === shown ? 'bg-white' : 'bg-white/50'}`}
                onClick={() => setShown(i)}
              />
            ))}
          </div>
        )}
        {/* Who it is, on the photo as in every dating app; taps pass through to the photo's buttons. */}
        <div className="pointer-events-none absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/75 via-black/40 to-transparent p-4 pt-16 text-white">
          <h2 className="text-2xl font-bold [text-shadow:0_1px_2px_rgb(0_0_0/0.5)]">
            {name}
            {row.age ? `, ${row.age}` : ''}
          </h2>
          <p className="text-sm text-white/90">
            {[row.city, distance].filter(Boolean).join(' · ')}
            {row.career ? ` · ${row.career}` : ''}
          </p>
        </div>
      </div>
      {/* Beside the photo it scrolls on its own when long, and then takes the keyboard's focus so it can; on a
          phone it never scrolls and is no tab stop. */}
      <div
        ref={aboutRef}
        className="space-y-2 p-4 lg:max-h-[calc(100dvh-19rem)] lg:overflow-y-auto lg:p-6"
        role="region"
        aria-label={`About ${name}`}
        tabIndex={aboutScrolls ? 0 : undefined}
      >
        {row.compatibility_score !== null && (
          <p className="font-semibold text-primary">{row.compatibility_score}% compatible</p>
        )}
        {reasons.length > 0 && (
          <ul className="list-disc pl-5 text-sm" aria-label="Why you match">
            {reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        )}
        {row.bio && <p className="text-sm">{row.bio}</p>}
        <ChipList label="Interests" items={interests} />
      </div>
    </article>
  );
}

export default function DiscoveryPage() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const offline = useOfflineNotice(useSyncConnected());
  const likeLimit = useLikeLimit(me);
  const [filters, setFilters] = useState<DeckFilters>({});
  // Online, a fresh deck is asked for on opening (below): the deck kept from last time is shown as settling
  // from the first paint, not for one frame as if it were the fresh one.
  const [loading, setLoading] = useState(() => isOnline());
  /** The fresh deck written to the replica (its stamp, and the deck shown then) until the page shows it. */
  const [awaitedDeck, setAwaitedDeck] = useState<{ fetchedAt: string; before: DeckRow[] }>();
  const [loadError, setLoadError] = useState<string>();
  const [reporting, setReporting] = useState<DeckRow>();
  const [blocking, setBlocking] = useState<DeckRow>();
  /** The last skip, which the member may take back. */
  const [lastSkip, setLastSkip] = useState<{ id: string; name: string }>();
  const deckQuery = useQuery<DeckRow>(
    `select * from discovery_deck
     where id not in (select target_id from user_interactions where user_id = ?)
       and id not in (select blocked_id from blocked_users where blocker_id = ?)
     order by position`,
    [me, me],
  );
  // Until the replica answers, the cards this device showed last (its snapshot), which take no action yet.
  const shown = useSnapshotRows('deck', me, deckQuery, DECK_SNAPSHOT_CARDS);
  const deck = shown.rows ?? NO_CARDS;
  const isLoading = shown.rows === undefined;
  const current = deck[0];
  const deckRef = useRef(deck);
  deckRef.current = deck;
  const { data: inputRows, isLoading: inputsLoading } = useQuery<DeckInputsRow>(DECK_INPUTS_SQL, [me]);
  const pendingUploads =
    usePendingIds('profiles').size +
    usePendingIds('match_preferences').size +
    usePendingIds('profile_answers').size;
  const inputsKey = findSettledDeckInputsKey(inputsLoading ? undefined : inputRows[0], pendingUploads);

  // Only the newest request writes the deck and ends the loading state, whatever order the answers come in.
  const requestSeq = useRef(0);
  const load = useCallback(
    async (f: DeckFilters) => {
      const seq = ++requestSeq.current;
      const isStale = () => seq !== requestSeq.current;
      setLoading(true);
      setLoadError(undefined);
      try {
        const fetchedAt = await refreshDeck(openReplica(me), f, isStale);
        if (!isStale())
          setAwaitedDeck(fetchedAt === undefined ? undefined : { fetchedAt, before: deckRef.current });
      } catch (e) {
        if (isStale()) return;
        setLoadError(
          isOnline()
            ? e instanceof Error && e.message.endsWith('.')
              ? e.message
              : 'Could not load new people. Please try again.'
            : 'You are offline: new people load when you are back online.',
        );
      } finally {
        if (!isStale()) setLoading(false);
      }
    },
    [me],
  );

  // A fresh deck on opening when online; offline, the last deck is swiped on, and a fresh one comes once the
  // network is back and the replica has caught up (her writes made offline uploaded first).
  const missedFetch = useRef(false);
  useEffect(() => {
    if (isOnline()) void load({});
    else missedFetch.current = true;
    return onNetworkChange((online) => {
      if (!online) missedFetch.current = true;
    });
  }, [load]);

  // A fresh deck again when her own profile, preferences or answers change in a way that matters to it
  // (saved in another tab or device and synced here): debounced, and never for unrelated columns.
  const filtersRef = useRef(filters);
  useEffect(() => {
    filtersRef.current = filters;
  }, [filters]);
  const scheduler = useRef<DeckRefreshScheduler>(null);
  useEffect(() => {
    const s = new DeckRefreshScheduler(() => {
      if (isOnline()) void load(filtersRef.current);
    });
    scheduler.current = s;
    return () => s.cancel();
  }, [load]);
  useEffect(() => {
    scheduler.current?.observe(inputsKey);
  }, [inputsKey]);
  // What the replica says once it has caught up with the server is what the deck was fetched with: the
  // baseline. Before that its rows may be the device's older copy, and their catching up is no change.
  useEffect(() => {
    let live = true;
    let stop: (() => void) | undefined;
    void openReplica(me).then((db) => {
      if (!live) return;
      stop = onReplicaCaughtUp(db, () => {
        void db
          .getOptional<DeckInputsRow>(DECK_INPUTS_SQL, [me])
          .then(
            (row) => (row ? getDeckInputsKey(row) : undefined),
            () => undefined,
          )
          .then((key) => {
            scheduler.current?.catchUp(key);
            if (missedFetch.current && isOnline()) {
              missedFetch.current = false;
              void load(filtersRef.current);
            }
          });
      });
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [me, load]);

  // While a fresh deck is on its way the card on screen may be replaced under the pointer: like, skip and
  // block wait for it (decision 30), so an action never lands on a card the member did not see.
  // The fresh deck is written to the replica before the deck's watched query reads it back: until that read
  // shows its rows (or none) the old deck's card, or its end, is still on screen. A second at most, in case
  // the read never comes.
  useEffect(() => {
    if (awaitedDeck === undefined) return;
    // Its first card, or an empty deck read after the write (every fresh card already decided on).
    if (deck[0]?.fetched_at === awaitedDeck.fetchedAt || (deck.length === 0 && deck !== awaitedDeck.before))
      setAwaitedDeck(undefined);
  }, [deck, awaitedDeck]);
  useEffect(() => {
    if (awaitedDeck === undefined) return;
    const timer = setTimeout(() => setAwaitedDeck(undefined), 1000);
    return () => clearTimeout(timer);
  }, [awaitedDeck]);
  const fetching = loading || awaitedDeck !== undefined;
  // A card waits while a fresh deck may replace it, and while it is the snapshot's (the replica's own deck, with
  // every answer this device made, is not read yet).
  const settling = (fetching || !shown.fromReplica) && !!current;
  const { mayLike } = likeLimit;
  const act = useCallback(
    async (type: 'like' | 'skip') => {
      if (!current || settling || reporting || likeLimit.isPromptOpen) return;
      try {
        if (type === 'like' && !(await mayLike())) return;
        await writeInteraction(await openReplica(me), me, current.id, type);
        setLastSkip(
          type === 'skip'
            ? { id: getInteractionId(me, current.id), name: current.name ?? 'them' }
            : undefined,
        );
        if (type === 'like')
          toast({ title: 'Like sent!', description: 'Your like has been sent successfully.' });
      } catch {
        toast({
          title: 'Error',
          description:
            type === 'like'
              ? 'Failed to send like. Please try again.'
              : 'Failed to skip user. Please try again.',
          variant: 'destructive',
        });
      }
    },
    [current, settling, reporting, likeLimit.isPromptOpen, mayLike, me],
  );

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (isTyping(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      const k = e.key.toLowerCase();
      if (e.key === 'ArrowRight' || k === 'l') {
        e.preventDefault();
        void act('like');
      } else if (e.key === 'ArrowLeft' || k === 's') {
        e.preventDefault();
        void act('skip');
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [act]);

  /** Brings the last skipped card back (the server allows undoing one's own skip for an hour). */
  async function undoSkip() {
    if (!lastSkip) return;
    const skip = lastSkip;
    setLastSkip(undefined);
    try {
      const db = await openReplica(me);
      await db.execute(`delete from user_interactions where id = ? and interaction_type = 'skip'`, [skip.id]);
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to undo the skip. Please try again.',
        variant: 'destructive',
      });
    }
  }

  async function block(row: DeckRow) {
    try {
      const db = await openReplica(me);
      await blockMember(db, me, row.id, BLOCK_REASON_DISCOVERY);
      hideFromDeck(row.id);
      await db.execute('delete from discovery_deck where id = ?', [row.id]);
      toast({ title: 'User blocked', description: 'User has been blocked successfully.' });
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to block user. Please try again.',
        variant: 'destructive',
      });
    }
  }

  return (
    <main id="main" className="mx-auto max-w-xl space-y-4 p-4 md:p-8 lg:max-w-3xl">
      <h1 className="text-3xl font-bold">Find Matches</h1>
      {offline && (
        <p className="rounded-lg border border-border p-2 text-sm" role="status">
          Offline: you can keep swiping; your likes are sent when you reconnect.
        </p>
      )}
      <Filters
        initial={filters}
        saved={inputsLoading ? undefined : inputRows[0]}
        onApply={(f) => {
          setFilters(f);
          void load(f);
        }}
      />
      {loadError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {loadError}
        </p>
      )}
      {(isLoading || (fetching && !current)) && <p>Loading...</p>}
      {settling && (
        <p id="deck-settling" role="status" className="text-center text-sm text-muted">
          {fetching ? 'Looking for new people...' : 'Getting your cards ready...'}
        </p>
      )}
      {current ? (
        <>
          <SwipeCard key={current.id} disabled={settling} onDecide={(type) => void act(type)}>
            <Card row={current} />
          </SwipeCard>
          {/* Always on screen: the decision never needs a scroll, whatever the card's length. */}
          <div
            className="sticky bottom-16 z-10 -mx-4 flex justify-center gap-3 border-t border-border bg-bg px-4 py-3 md:bottom-0 md:mx-0 md:rounded-lg md:border"
            data-testid="deck-actions"
          >
            {lastSkip && (
              <button
                type="button"
                className="btn-ghost"
                title={`Bring ${lastSkip.name} back`}
                onClick={() => void undoSkip()}
              >
                <RotateCcw aria-hidden="true" className="mr-1 inline size-4" />
                Undo skip
              </button>
            )}
            <button
              type="button"
              className="btn-secondary"
              onClick={() => void act('skip')}
              aria-keyshortcuts="ArrowLeft S"
              disabled={settling}
              aria-describedby={settling ? 'deck-settling' : undefined}
            >
              <X aria-hidden="true" className="mr-1 inline size-4" />
              Skip
            </button>
            <button
              type="button"
              className="btn-primary"
              onClick={() => void act('like')}
              aria-keyshortcuts="ArrowRight L"
              disabled={settling}
              aria-describedby={settling ? 'deck-settling' : undefined}
            >
              <Heart aria-hidden="true" className="mr-1 inline size-4" />
              Like
            </button>
          </div>
          <div className="flex justify-center gap-3 text-sm">
            <button
              type="button"
              className="btn-ghost"
              onClick={() => setBlocking(current)}
              disabled={settling}
              aria-describedby={settling ? 'deck-settling' : undefined}
            >
              Block
            </button>
            <button type="button" className="btn-ghost" onClick={() => setReporting(current)}>
              Report
            </button>
          </div>
          <p className="text-center text-xs text-muted">
            Keys: right arrow or L to like, left arrow or S to skip.
          </p>
        </>
      ) : (
        !isLoading &&
        !fetching && (
          <div className="card space-y-3 text-center">
            <h2 className="text-xl font-semibold">No more people for now</h2>
            <p>Try relaxing your filters: widen the age range, the distance or who you want to see.</p>
            <button type="button" className="btn-primary" onClick={() => void load(filters)}>
              Look again
            </button>
          </div>
        )
      )}
      {likeLimit.prompt}
      {blocking && (
        <BlockConfirmDialog
          name={blocking.name ?? 'this member'}
          onConfirm={() => {
            const row = blocking;
            setBlocking(undefined);
            void block(row);
          }}
          onCancel={() => setBlocking(undefined)}
        />
      )}
      {reporting && (
        <ReportDialog
          reporterId={me}
          reported={{ id: reporting.id, name: reporting.name ?? 'this member' }}
          onClose={() => setReporting(undefined)}
          onReported={() => {
            hideFromDeck(reporting.id);
            const hidden = reporting.id;
            void openReplica(me).then((db) =>
              db.execute('delete from discovery_deck where id = ?', [hidden]),
            );
            setReporting(undefined);
          }}
        />
      )}
    </main>
  );
}
