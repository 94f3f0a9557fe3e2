// The match popup (spec §2): shown when a new match row involving the member appears in the replica; Escape
// or a tap outside closes it, "Send Message" opens the new conversation.
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { usePowerSync, useStatus } from '../../data/replica.tsx';
import { useAuth } from '../../session/auth-context.tsx';
import { Modal } from '../../ui/modal.tsx';
import { MemberPhoto, parseList } from '../profile/member-photo.tsx';
import { useMatches, type MatchRow } from './matches-data.ts';

/**
 * Mount once inside the replica provider. Only a match that reaches the replica after it has synced once pops
 * up: the matches it holds then are not news. A member signing in on a new device starts from an empty replica
 * and receives every old match in the first sync; they were greeted with "It's a Match!" for a match made days
 * before.
 */
export function MatchPopup() {
  const { user } = useAuth();
  const db = usePowerSync();
  const { hasSynced } = useStatus();
  const { data: matches } = useMatches(user?.id ?? '');
  const known = useRef<Set<string> | null>(null);
  const [ready, setReady] = useState(false);
  const [shown, setShown] = useState<MatchRow>();
  const navigate = useNavigate();

  useEffect(() => {
    if (!hasSynced || known.current) return;
    let cancelled = false;
    // Read from the replica itself: the watched list may still be the one from before the sync.
    db.getAll<{ id: string }>('select id from matches').then(
      (rows) => {
        if (cancelled || known.current) return;
        known.current = new Set(rows.map((r) => r.id));
        setReady(true);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [db, hasSynced]);

  useEffect(() => {
    const seen = known.current;
    if (!ready || !seen) return;
    const fresh = matches.find((m) => !seen.has(m.id));
    for (const m of matches) seen.add(m.id);
    if (fresh) setShown(fresh);
  }, [matches, ready]);

  if (!shown) return null;
  const name = shown.name ?? 'your match';
  return (
    <Modal
      labelledBy="match-title"
      placement="center"
      onClose={() => setShown(undefined)}
      className="max-w-sm"
    >
      <div className="space-y-4 text-center">
        <h2 id="match-title" className="text-3xl font-bold text-primary">
          It's a Match!
        </h2>
        <MemberPhoto
          path={parseList(shown.photos)[0]}
          alt={`Photo of ${name}`}
          className="mx-auto size-40 rounded-full object-cover"
        />
        <p>You and {name} liked each other!</p>
        <div className="flex justify-center gap-2">
          <button type="button" className="btn-secondary" autoFocus onClick={() => setShown(undefined)}>
            Keep Swiping
          </button>
          <button
            type="button"
            className="btn-primary"
            onClick={() => {
              setShown(undefined);
              // Straight into the new conversation (its row may still be on its way: then the inbox).
              void navigate(shown.conversation_id ? `/messages?c=${shown.conversation_id}` : '/messages');
            }}
          >
            Send Message
          </button>
        </div>
      </div>
    </Modal>
  );
}
