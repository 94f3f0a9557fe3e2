// /likes: likes received (with the liker's photos), like back, skip and block; marks them seen on opening.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from '../../session/auth-context.tsx';
import { useQuery as useReplicaQuery, useReplica } from '../../data/replica.tsx';
import { toast } from '../../ui/toast-store.ts';
import { MemberPhoto } from '../profile/member-photo.tsx';
import { BLOCK_REASON_LIKES, blockMember } from '../reports/report-api.ts';
import { useLikeLimit } from './like-limit-prompt.tsx';
import {
  RECEIVED_LIKES_KEY,
  UNREAD_LIKES_KEY,
  useMarkLikesSeen,
  useReceivedLikes,
  type ReceivedLike,
} from './likes-api.ts';
import { writeInteraction } from './likes-data.ts';

export default function LikesPage() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const db = useReplica();
  const qc = useQueryClient();
  const likes = useReceivedLikes();
  const markSeen = useMarkLikesSeen();
  const likeLimit = useLikeLimit(db, me);
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const sentinel = useRef<HTMLDivElement>(null);
  // Answered locally (possibly still queued offline): gone from the list at once.
  const { data: answered } = useReplicaQuery<{ target_id: string }>(
    'select target_id from user_interactions where user_id = ?',
    [me],
  );
  const answeredIds = new Set(answered.map((a) => a.target_id));

  const { mutate: markSeenNow } = markSeen;
  useEffect(() => {
    markSeenNow();
  }, [markSeenNow]);

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = likes;
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  function refresh() {
    void qc.invalidateQueries({ queryKey: RECEIVED_LIKES_KEY });
    void qc.invalidateQueries({ queryKey: UNREAD_LIKES_KEY });
  }

  async function likeBack(like: ReceivedLike) {
    try {
      // A like back is a like: the free daily limit applies to it too.
      if (!(await likeLimit.mayLike())) return;
      await writeInteraction(db, me, like.liker_id, 'like');
      toast({ title: 'Like sent back!', description: "You've liked them back!" });
      refresh();
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
      await writeInteraction(db, me, like.liker_id, 'skip');
      refresh();
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
      await blockMember(me, like.liker_id, BLOCK_REASON_LIKES);
      setHidden((h) => new Set(h).add(like.liker_id));
      toast({ title: 'User blocked', description: 'User has been blocked successfully.' });
      refresh();
    } catch {
      toast({
        title: 'Error',
        description: 'Failed to block user. Please try again.',
        variant: 'destructive',
      });
    }
  }

  const rows = (likes.data?.pages.flat() ?? []).filter(
    (l) => !answeredIds.has(l.liker_id) && !hidden.has(l.liker_id),
  );

  return (
    <main id="main" className="mx-auto max-w-4xl p-4 md:p-8">
      <h1 className="text-3xl font-bold">Likes</h1>
      <p className="mt-1 text-muted">People who liked you. Like them back to match.</p>
      {likes.isLoading && <p className="mt-6">Loading...</p>}
      {likes.error && (
        <p role="alert" className="mt-6 text-red-700 dark:text-red-400">
          Could not load your likes. Check your connection and try again.
        </p>
      )}
      {!likes.isLoading && !likes.error && rows.length === 0 && (
        <p className="card mt-6">
          No new likes right now. Complete your profile and keep swiping to get noticed.
        </p>
      )}
      <ul className="mt-6 grid gap-4 sm:grid-cols-2">
        {rows.map((like) => (
          <li key={like.id} className="card flex flex-col gap-3" data-testid="received-like">
            <div className="flex gap-2 overflow-x-auto">
              {(like.liker_photos.length ? like.liker_photos : [undefined]).slice(0, 3).map((p, i) => (
                <MemberPhoto
                  key={p ?? i}
                  path={p}
                  alt={`Photo ${i + 1} of ${like.name ?? 'this member'}`}
                  className="h-28 w-28 shrink-0 rounded-lg object-cover"
                />
              ))}
            </div>
            <div>
              <h2 className="text-lg font-semibold">
                {like.name ?? 'Member'}
                {like.age ? `, ${like.age}` : ''}
              </h2>
              {like.city && <p className="text-sm text-muted">{like.city}</p>}
              {like.bio && <p className="mt-1 line-clamp-2 text-sm">{like.bio}</p>}
            </div>
            <div className="mt-auto flex flex-wrap gap-2">
              <button type="button" className="btn-primary" onClick={() => void likeBack(like)}>
                Like back
              </button>
              <button type="button" className="btn-secondary" onClick={() => void skip(like)}>
                Skip
              </button>
              <button type="button" className="btn-ghost" onClick={() => void block(like)}>
                Block
              </button>
            </div>
          </li>
        ))}
      </ul>
      <div ref={sentinel} aria-hidden="true" className="h-4" />
      {isFetchingNextPage && <p className="mt-2 text-center">Loading more...</p>}
      {likeLimit.prompt}
    </main>
  );
}
