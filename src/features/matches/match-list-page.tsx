// /match-list: matches with online state and last message; unmatch (confirmed, deletes the match) and report.
// A returning member's first screen: while the replica opens, the rows it showed last time are painted from its
// screen snapshot (decision 0093), then the replica's rows replace them; every action works on either.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Flag, HeartOff, MessageCircle, User } from 'lucide-react';
import { CallButtons } from '../calls/call-buttons.tsx';
import { useAuth } from '../../session/auth-context.tsx';
import { markStart } from '../../session/pwa-start-marks.ts';
import { openReplica } from '../../data/replica.tsx';
import { useSnapshotRows } from '../../data/snapshot-rows.ts';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { MoreMenu } from '../../ui/more-menu.tsx';
import { OnlineIndicator } from '../../ui/online-indicator.tsx';
import { toast } from '../../ui/toast-store.ts';
import { MemberPhoto, parseList } from '../profile/member-photo.tsx';
import { MemberProfileDialog } from '../profile/member-profile-dialog.tsx';
import { ReportDialog } from '../reports/report-dialog.tsx';
import { useMatches, type MatchRow } from './matches-data.ts';

/** The screen snapshot's name (screen-snapshots.ts). */
const SNAPSHOT = 'match-list';

/** To the conversation with a match. */
function MessageLink({ match, className }: { match: MatchRow; className: string }) {
  return (
    <Link
      to={match.conversation_id ? `/messages?c=${match.conversation_id}` : '/messages'}
      className={`btn-primary ${className}`}
    >
      <MessageCircle aria-hidden="true" className="size-4" />
      Message
    </Link>
  );
}

export default function MatchListPage() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  // Before the replica has opened there is no query to run: the snapshot shows until its answer.
  // A new device's replica is empty until its first sync: its empty answer is not "No matches yet".
  const replica = useMatches(me, { emptyMeansLoading: true });
  const { rows: matches, fromReplica } = useSnapshotRows(SNAPSHOT, me, replica);
  const [confirming, setConfirming] = useState<MatchRow>();
  const [reporting, setReporting] = useState<MatchRow>();
  const [viewing, setViewing] = useState<MatchRow>();
  // The offline start's marks (bench/offline-start): the list on screen, whichever source came first, and the
  // list read from the replica.
  useEffect(() => {
    if (matches) markStart('hs:first-screen', { rows: matches.length, fromReplica });
  }, [matches, fromReplica]);
  useEffect(() => {
    if (fromReplica) markStart('hs:first-synced-screen', { rows: replica.data.length });
  }, [fromReplica, replica.data]);

  async function unmatch(m: MatchRow) {
    setConfirming(undefined);
    try {
      // Queued like every replica write; the server's policy lets either member delete the match. From the
      // snapshot, the write waits for the replica to open.
      const db = await openReplica(me);
      await db.execute('delete from matches where id = ?', [m.id]);
      toast({ title: 'Unmatched', description: `You and ${m.name ?? 'this member'} are no longer matched.` });
    } catch {
      toast({ title: 'Error', description: 'Failed to unmatch. Please try again.', variant: 'destructive' });
    }
  }

  return (
    <main id="main" className="mx-auto max-w-3xl p-4 md:p-8">
      <h1 className="text-3xl font-bold">My Matches</h1>
      {!matches && <p className="mt-6">Loading...</p>}
      {matches?.length === 0 && (
        <p className="card mt-6">
          No matches yet.{' '}
          <Link to="/find-matches" className="link">
            Find Matches
          </Link>{' '}
          and like people you are interested in: when they like you back, you match.
        </p>
      )}
      <ul className="mt-6 space-y-3">
        {matches?.map((m) => (
          <li key={m.id} className="card flex flex-wrap items-center gap-x-4 gap-y-3" data-testid="match-row">
            {/* A tap on the face opens their whole profile. */}
            <button
              type="button"
              className="shrink-0 rounded-full"
              aria-label={`View ${m.name ?? 'your match'}'s profile`}
              onClick={() => setViewing(m)}
            >
              <MemberPhoto
                path={parseList(m.photos)[0]}
                alt={`Photo of ${m.name ?? 'your match'}`}
                className="size-16 rounded-full object-cover hover:ring-2 hover:ring-primary/50"
              />
            </button>
            <div className="min-w-0 flex-1">
              <h2 className="font-semibold">
                {m.name ?? 'Member'}
                {m.age ? `, ${m.age}` : ''}
              </h2>
              <OnlineIndicator userId={m.other_id} />
              <p className="truncate text-sm text-muted">{m.last_message ?? 'Say hello!'}</p>
            </div>
            {/* On a phone the actions take their own line under the member (Message widest, the rarer ones in
                the More menu); on a wider screen they sit beside the member, every one in words. */}
            <div className="flex w-full items-center gap-1 sm:w-auto">
              <MessageLink match={m} className="flex-1 sm:flex-none" />
              <CallButtons
                me={me}
                otherId={m.other_id}
                otherName={m.name ?? 'your match'}
                otherPhoto={parseList(m.photos)[0]}
              />
              <button
                type="button"
                className="btn-secondary hidden md:inline-flex"
                onClick={() => setConfirming(m)}
              >
                Unmatch
              </button>
              <button
                type="button"
                className="btn-ghost hidden md:inline-flex"
                onClick={() => setReporting(m)}
              >
                Report
              </button>
              <MoreMenu
                className="md:hidden"
                label={`More actions for ${m.name ?? 'this member'}`}
                items={[
                  { icon: User, label: 'View profile', onSelect: () => setViewing(m) },
                  { icon: HeartOff, label: 'Unmatch', onSelect: () => setConfirming(m) },
                  { icon: Flag, label: 'Report', onSelect: () => setReporting(m) },
                ]}
              />
            </div>
          </li>
        ))}
      </ul>
      {confirming && (
        <ConfirmDialog
          title={`Unmatch ${confirming.name ?? 'this member'}?`}
          text="You will no longer be able to message each other. This cannot be undone."
          confirmLabel="Unmatch"
          onCancel={() => setConfirming(undefined)}
          onConfirm={() => void unmatch(confirming)}
        />
      )}
      {viewing && (
        <MemberProfileDialog
          memberId={viewing.other_id}
          fallbackName={viewing.name ?? 'Your match'}
          onClose={() => setViewing(undefined)}
        >
          <MessageLink match={viewing} className="flex-1" />
        </MemberProfileDialog>
      )}
      {reporting && (
        <ReportDialog
          reporterId={me}
          reported={{ id: reporting.other_id, name: reporting.name ?? 'this member' }}
          onClose={() => setReporting(undefined)}
          onReported={() => setReporting(undefined)}
        />
      )}
    </main>
  );
}
