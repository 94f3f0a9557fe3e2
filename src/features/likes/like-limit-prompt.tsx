// The free daily like limit as a member meets it: checked on the replica before a like, and again when the
// server's SQL limit (check_like_limit) refuses a queued like; both open the "unlimited likes and matches" prompt.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { onUploadRefused, openReplica } from '../../data/replica.tsx';
import { useEntitlement } from '../../session/use-entitlement.ts';
import { Modal } from '../../ui/modal.tsx';
import { FREE_DAILY_LIKES, countRecentLikes, isLikeLimitRefusal } from './like-limit.ts';

export function UpgradePrompt({ onClose }: { onClose: () => void }) {
  return (
    <Modal labelledBy="upgrade-title" describedBy="upgrade-text" onClose={onClose} className="md:max-w-md">
      <div className="space-y-3">
        <h2 id="upgrade-title" className="text-xl font-semibold">
          You've used today's likes
        </h2>
        <p id="upgrade-text">
          Free members can send {FREE_DAILY_LIKES} likes a day. Upgrade to Premium for unlimited likes and
          matches.
        </p>
        <div className="flex justify-end gap-2">
          <button type="button" className="btn-secondary" onClick={onClose} autoFocus>
            Maybe later
          </button>
          <Link to="/pricing" className="btn-primary">
            Upgrade Now
          </Link>
        </div>
      </div>
    </Modal>
  );
}

/**
 * `mayLike()` before writing a like: false (and the prompt opens) when a free member already sent today's
 * likes on this device's replica. With the plan unknown (e.g. offline before it loaded) it lets the like
 * through: the server decides, and its refusal opens the prompt too.
 */
export function useLikeLimit(me: string) {
  const { entitlement } = useEntitlement();
  const [open, setOpen] = useState(false);

  useEffect(
    () =>
      onUploadRefused((refusal) => {
        if (isLikeLimitRefusal(refusal)) setOpen(true);
      }),
    [],
  );

  const mayLike = useCallback(async (): Promise<boolean> => {
    if (!entitlement || entitlement.isPremium) return true;
    // The member's replica (already open on a screen that shows likes to answer; else this waits for it).
    if ((await countRecentLikes(await openReplica(me), me)) < FREE_DAILY_LIKES) return true;
    setOpen(true);
    return false;
  }, [me, entitlement]);

  const prompt: ReactNode = open ? <UpgradePrompt onClose={() => setOpen(false)} /> : null;
  return { mayLike, isPromptOpen: open, prompt };
}
