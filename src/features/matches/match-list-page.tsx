// /match-list: matches with online state and last message; unmatch (confirmed, deletes the match) and report.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { CallButtons } from '../calls/call-buttons.tsx';
import { useAuth } from '../../session/auth-context.tsx';
import { markStart } from '../../session/pwa-start-marks.ts';
import { useReplica } from '../../data/replica.tsx';
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx';
import { OnlineIndicator } from '../../ui/online-indicator.tsx';
import { toast } from '../../ui/toast-store.ts';
import { MemberPhoto, parseList } from '../profile/member-photo.tsx';
import { ReportDialog } from '../reports/report-dialog.tsx';
import { useMatches, type MatchRow } from './matches-data.ts';

export default function MatchListPage() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const db = useReplica();
  const { data: matches, isLoading } = useMatches(me);
  const [confirming, setConfirming] = useState<MatchRow>();
  const [reporting, setReporting] = useState<MatchRow>();
  // The offline start's finish line (bench/offline-start): the list rendered from the replica.
  useEffect(() => {
    if (!isLoading) markStart('hs:first-synced-screen');
  }, [isLoading]);

  async function unmatch(m: MatchRow) {
    setConfirming(undefined);
    try {
      // Queued like every replica write; the server's policy lets either member delete the match.
      await db.execute('delete from matches where id = ?', [m.id]);
      toast({ title: 'Unmatched', description: `You and ${m.name ?? 'this member'} are no longer matched.` });
    } catch {
      toast({ title: 'Error', description: 'Failed to unmatch. Please try again.', variant: 'destructive' });
    }
  }

  return (
    <main id="main" className="mx-auto max-w-3xl p-4 md:p-8">
      <h1 className="text-3xl font-bold">My Matches</h1>
      {isLoading && <p className="mt-6">Loading...</p>}
      {!isLoading && matches.length === 0 && (
        <p className="card mt-6">
          No matches yet.{' '}
          <Link to="/find-matches" className="link">
            Find Matches
          </Link>{' '}
          and like people you are interested in: when they like you back, you match.
        </p>
      )}
      <ul className="mt-6 space-y-3">
        {matches.map((m) => (
          <li key={m.id} className="card flex items-center gap-4" data-testid="match-row">
            <MemberPhoto
              path={parseList(m.photos)[0]}
              alt={`Photo of ${m.name ?? 'your match'}`}
              className="size-16 rounded-full object-cover"
            />
            <div className="min-w-0 flex-1">
              <h2 className="font-semibold">
                {m.name ?? 'Member'}
                {m.age ? `, ${m.age}` : ''}
              </h2>
              <OnlineIndicator userId={m.other_id} />
              <p className="truncate text-sm text-muted">{m.last_message ?? 'Say hello!'}</p>
            </div>
            <div className="flex flex-col gap-1 sm:flex-row">
              <Link to="/messages" className="btn-primary">
                Message
              </Link>
              <span className="flex justify-center">
                <CallButtons
                  me={me}
                  otherId={m.other_id}
                  otherName={m.name ?? 'your match'}
                  otherPhoto={parseList(m.photos)[0]}
                />
              </span>
              <button type="button" className="btn-secondary" onClick={() => setConfirming(m)}>
                Unmatch
              </button>
              <button type="button" className="btn-ghost" onClick={() => setReporting(m)}>
                Report
              </button>
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
