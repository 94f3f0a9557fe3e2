// /account: the members this member blocked, and Unblock (after a yes). What is blocked comes from the replica
// (an unblock shows at once and waits there while offline); their names from the server, which alone may
// read a blocked member's name (0141).
import { useQuery as useServerQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Ban } from 'lucide-react';
import { useAuth } from '../../session/auth-context.tsx';
import { useQuery, useReplica } from '../../data/replica.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { IconBadge } from '../../ui/icon-badge.tsx';
import { formatDayPhrase } from '../../ui/time-label.ts';
import { toast } from '../../ui/toast-store.ts';
import { fetchBlockedMembers } from './settings-api.ts';

interface Blocked {
  blocked_id: string;
  name: string;
  blocked_at: string;
  reported: boolean;
}

const UNNAMED = 'A member you blocked';

export function BlockedMembersSection() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const db = useReplica();
  const { data: local, isLoading } = useQuery<{ blocked_id: string; created_at: string }>(
    'select blocked_id, created_at from blocked_users where blocker_id = ? order by created_at desc',
    [me],
    // A new device's replica is empty until its first sync: that is not "no one blocked".
    { emptyMeansLoading: true },
  );
  // Asked again whenever the replica's list changes (a block made on another device brings its name).
  const ids = local.map((b) => b.blocked_id).join(',');
  const names = useServerQuery({
    queryKey: ['blocked-members', me, ids],
    enabled: !!me && local.length > 0,
    queryFn: fetchBlockedMembers,
  });
  const [unblocking, setUnblocking] = useState<Blocked>();

  const known = new Map((names.data ?? []).map((m) => [m.blocked_id, m]));
  const rows: Blocked[] = local.map((b) => {
    const m = known.get(b.blocked_id);
    return {
      blocked_id: b.blocked_id,
      name: m?.name ?? UNNAMED,
      blocked_at: m?.blocked_at ?? b.created_at,
      reported: m?.reported ?? false,
    };
  });

  async function unblock(b: Blocked) {
    setUnblocking(undefined);
    try {
      // Queued like every replica write; the server lets the blocker delete their own block (0003).
      await db.execute('delete from blocked_users where blocker_id = ? and blocked_id = ?', [
        me,
        b.blocked_id,
      ]);
      toast({
        title: 'Unblocked',
        description: `${b.name === UNNAMED ? 'The member' : b.name} is no longer blocked.`,
      });
    } catch {
      toast({ title: 'Error', description: 'Failed to unblock. Please try again.', variant: 'destructive' });
    }
  }

  return (
    <section aria-labelledby="blocked-heading" className="card">
      <h2 id="blocked-heading" className="text-xl font-semibold">
        Blocked members
      </h2>
      <p className="mt-1 text-sm text-muted">
        People you blocked cannot see your profile, like you or message you, and you do not see them.
      </p>
      {isLoading ? (
        <p className="mt-3">Loading...</p>
      ) : rows.length === 0 ? (
        <p className="mt-3">You have not blocked anyone.</p>
      ) : (
        <ul className="mt-3 divide-y divide-border" aria-label="Blocked members">
          {rows.map((b) => (
            <li key={b.blocked_id} className="flex items-center gap-3 py-3" data-testid="blocked-member">
              <IconBadge icon={Ban} active={false} />
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{b.name}</p>
                <p className="text-sm text-muted">
                  Blocked {formatDayPhrase(b.blocked_at, undefined, { daysInWords: 2 }) ?? ''}
                  {b.reported ? ' · You also reported them' : ''}
                </p>
              </div>
              <button type="button" className="btn-secondary" onClick={() => setUnblocking(b)}>
                Unblock
                <span className="sr-only"> {b.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {unblocking && (
        <ConfirmDialog
          title={unblocking.name === UNNAMED ? 'Unblock this member?' : `Unblock ${unblocking.name}?`}
          text={
            unblocking.reported
              ? 'You also reported them, so you stay hidden from each other: unblocking only takes them off this list.'
              : 'You may see each other in discovery again and they can like you. An earlier match and its messages do not come back.'
          }
          confirmLabel="Unblock"
          onConfirm={() => void unblock(unblocking)}
          onCancel={() => setUnblocking(undefined)}
        />
      )}
    </section>
  );
}
