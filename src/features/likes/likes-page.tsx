// /likes: likes received as a grid of photos (a tap opens the liker's whole profile), like back, skip and block
// (after a yes); marks them seen as it lists them. The likes are read from the replica (decision 0106), so the
// page opens offline, a new like shows as it syncs and an answer (possibly still queued offline) takes its card
// away at once; until the replica opens, the likes this device showed last paint in its place (decision 0104).
// "Seen" is a replica write too (decision 0109): the Likes badge clears at once, offline as well.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Heart } from 'lucide-react';
import { useAuth } from '../../session/auth-context.tsx';
import { openReplica } from '../../data/replica.tsx';
import { useSnapshotRows } from '../../data/snapshot-rows.ts';
import { toast } from '../../ui/toast-store.ts';
import { useUnreadCounts } from '../notifications/unread-store.ts';
import { BLOCK_REASON_LIKES, blockMember } from '../reports/report-api.ts';
import { BlockConfirmDialog } from '../reports/report-dialog.tsx';
import { getLikerName, LikeCard } from './like-card.tsx';
import { LikeDetails } from './like-details.tsx';
import { useLikeLimit } from './like-limit-prompt.tsx';
import {
  LIKES_PAGE_SIZE,
  markLikesSeen,
  toReceivedLike,
  useReceivedLikes,
  writeInteraction,
  type ReceivedLike,
} from './likes-data.ts';

export default function LikesPage() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  // The page grows by LIKES_PAGE_SIZE each time its end scrolls into view.
  const [limit, setLimit] = useState(LIKES_PAGE_SIZE);
  const likes = useReceivedLikes(me, limit);
  const shown = useSnapshotRows('likes', me, likes);
  const { likes: unseen } = useUnreadCounts();
  const likeLimit = useLikeLimit(me);
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  // Whose profile is open (by liker, so a refreshed list keeps it open) and whose block awaits a yes.
  const [viewing, setViewing] = useState<string>();
  const [blocking, setBlocking] = useState<ReceivedLike>();
  const sentinel = useRef<HTMLDivElement>(null);

  // Likes the replica lists are seen: on opening, and a like that arrives while the page is open.
  useEffect(() => {
    if (!shown.fromReplica || unseen === 0 || !me) return;
    void openReplica(me)
      .then((db) => markLikesSeen(db, me))
      .catch((e: unknown) => console.debug('[likes] not marked seen', e));
  }, [shown.fromReplica, unseen, me]);

  // More to list when the replica filled the page it was asked for.
  const hasMore = shown.fromReplica && likes.data.length >= limit;
  // Re-reading with a bigger page (the rows so far stay listed meanwhile).
  const loadingMore = shown.fromReplica && likes.isFetching;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasMore) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !loadingMore) setLimit((n) => n + LIKES_PAGE_SIZE);
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasMore, loadingMore]);

  async function likeBack(like: ReceivedLike) {
    try {
      // A like back is a like: the free daily limit applies to it too.
      if (!(await likeLimit.mayLike())) return;
      await writeInteraction(await openReplica(me), me, like.liker_id, 'like');
      toast({ title: 'Like sent back!', description: "You've liked them back!" });
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to like back. Please try again.',
        variant: 'destructive',
      });
    }
  }

  async function skip(like: ReceivedLike) {
    try {
      await writeInteraction(await openReplica(me), me, like.liker_id, 'skip');
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to skip user. Please try again.',
        variant: 'destructive',
      });
    }
  }

  async function block(like: ReceivedLike) {
    try {
      await blockMember(await openReplica(me), me, like.liker_id, BLOCK_REASON_LIKES);
      setHidden((h) => new Set(h).add(like.liker_id));
      toast({ title: 'User blocked', description: 'User has been blocked successfully.' });
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to block user. Please try again.',
        variant: 'destructive',
      });
    }
  }

  // The skeleton shows while neither the replica nor this device's last list has any rows to show. A block
  // hides its card at once, also from the last list painted before the replica answers (its query leaves
  // blocked members out).
  const loading = shown.rows === undefined && !likes.error;
  const rows = (shown.rows ?? []).map(toReceivedLike).filter((l) => !hidden.has(l.liker_id));
  // The open profile follows the list: once its like is answered (here or on another device) it closes.
  const viewed = rows.find((l) => l.liker_id === viewing);
  const actions = {
    onView: (like: ReceivedLike) => setViewing(like.liker_id),
    onLikeBack: (like: ReceivedLike) => void likeBack(like),
    onSkip: (like: ReceivedLike) => void skip(like),
    onBlock: (like: ReceivedLike) => setBlocking(like),
  };

  return (
    <main id="main" className="mx-auto max-w-4xl p-4 md:p-8">
      <h1 className="text-3xl font-bold">Likes</h1>
      <p className="mt-1 text-muted">People who liked you. Like them back to match.</p>
      {loading && (
        <div
          role="status"
          aria-label="Loading your likes"
          className="mt-6 grid grid-cols-2 gap-3 md:grid-cols-3"
        >
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="aspect-[3/4] rounded-xl bg-subtle motion-safe:animate-pulse" />
          ))}
        </div>
      )}
      {likes.error && (
        <p role="alert" className="mt-6 text-red-700 dark:text-red-400">
          Could not load your likes. Please reload the page.
        </p>
      )}
      {shown.fromReplica && !likes.error && rows.length === 0 && (
        <div className="card mt-6 flex flex-col items-center gap-3 text-center">
          <Heart aria-hidden="true" className="size-10 text-primary" />
          <h2 className="text-xl font-semibold">No new likes right now</h2>
          <p className="text-muted">Complete your profile and keep swiping to get noticed.</p>
          <div className="flex flex-wrap justify-center gap-2">
            <Link to="/find-matches" className="btn-primary">
              Find Matches
            </Link>
            <Link to="/profile" className="btn-secondary">
              Edit profile
            </Link>
          </div>
        </div>
      )}
      <ul className="mt-6 grid grid-cols-2 gap-3 md:grid-cols-3 md:gap-4">
        {rows.map((like) => (
          <LikeCard key={like.id} like={like} actions={actions} />
        ))}
      </ul>
      <div ref={sentinel} aria-hidden="true" className="h-4" />
      {loadingMore && <p className="mt-2 text-center">Loading more...</p>}
      {viewed && <LikeDetails like={viewed} actions={actions} onClose={() => setViewing(undefined)} />}
      {blocking && (
        <BlockConfirmDialog
          name={getLikerName(blocking)}
          onConfirm={() => {
            const like = blocking;
            setBlocking(undefined);
            void block(like);
          }}
          onCancel={() => setBlocking(undefined)}
        />
      )}
      {likeLimit.prompt}
    </main>
  );
}
