// Hosts the match popup for the whole member area: opens (or shares) the member's replica without blocking the layout.
import { PowerSyncContext } from '@powersync/react';
import { useEffect, useState } from 'react';
import { useAuth } from '../session/auth-context.tsx';
import { openReplica, type PowerSyncDatabase } from '../data/replica.tsx';
import { MatchPopup } from '../features/matches/match-popup.tsx';

export default function MatchPopupHost() {
  const { user } = useAuth();
  const [db, setDb] = useState<PowerSyncDatabase>();
  useEffect(() => {
    if (!user?.id) return;
    let cancelled = false;
    // The same instance the pages use (openReplica shares one per member).
    openReplica(user.id).then(
      (d) => !cancelled && setDb(d),
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [user?.id]);
  if (!db) return null;
  return (
    <PowerSyncContext value={db}>
      <MatchPopup />
    </PowerSyncContext>
  );
}
