// The games in a conversation (issue 19): the "Play a game" button of the thread and the invitation's card,
// which the invited member answers right there.
import { useState } from 'react';
import { Gamepad2 } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { useReplica } from '../../data/replica.tsx';
import { GAME_STATUS_WORDS } from '../../domain/games.ts';
import { acceptWithToast, declineWithToast } from './game-actions.ts';
import { GameIcon } from './game-icons.tsx';
import { useGameSession } from './games-data.ts';
import { InviteDialog } from './invite-dialog.tsx';

export function PlayGameButton({ me, other }: { me: string; other: { id: string; name: string } }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn-ghost px-2"
        aria-label={`Play a game with ${other.name}`}
        title="Play a game"
        onClick={() => setOpen(true)}
      >
        <Gamepad2 aria-hidden="true" className="size-5" />
      </button>
      {open && <InviteDialog me={me} other={other} onClose={() => setOpen(false)} />}
    </>
  );
}

function readMeta(metadata: string | null): { sessionId?: string; gameType?: string; gameName?: string } {
  try {
    const m = JSON.parse(metadata ?? '{}') as Record<string, unknown>;
    return {
      ...(typeof m['sessionId'] === 'string' ? { sessionId: m['sessionId'] } : {}),
      ...(typeof m['gameType'] === 'string' ? { gameType: m['gameType'] } : {}),
      ...(typeof m['gameName'] === 'string' ? { gameName: m['gameName'] } : {}),
    };
  } catch {
    return {};
  }
}

/** A game invitation in the thread: who invited whom to what, its state, and Accept/Decline for the invited. */
export function GameInviteCard({
  me,
  senderId,
  otherName,
  metadata,
}: {
  me: string;
  senderId: string;
  otherName: string;
  metadata: string | null;
}) {
  const db = useReplica();
  const navigate = useNavigate();
  const meta = readMeta(metadata);
  const { data } = useGameSession(me, meta.sessionId ?? '');
  const session = data[0];
  const game = meta.gameName ?? session?.game_name ?? 'a game';
  const mine = senderId === me;
  return (
    <div
      className="w-full max-w-sm rounded-2xl border border-border bg-card p-3"
      data-testid="game-invite-card"
    >
      <p className="flex items-center gap-2 font-medium">
        <GameIcon type={meta.gameType ?? ''} className="size-5 text-primary" />
        {mine ? `You invited ${otherName} to play ${game}` : `${otherName} invited you to play ${game}`}
      </p>
      {session && (
        <p className="mt-1 text-sm text-muted">{GAME_STATUS_WORDS[session.status] ?? session.status}</p>
      )}
      <div className="mt-2 flex flex-wrap gap-2">
        {session?.status === 'pending' && session.player2_id === me ? (
          <>
            <button
              type="button"
              className="btn-primary"
              onClick={() =>
                void acceptWithToast(db, session).then((ok) => ok && navigate(`/games/${session.id}`))
              }
            >
              Accept
            </button>
            <button
              type="button"
              className="btn-secondary"
              onClick={() => void declineWithToast(db, session)}
            >
              Decline
            </button>
          </>
        ) : (
          meta.sessionId && (
            <Link to={`/games/${meta.sessionId}`} className="btn-secondary">
              Open game
            </Link>
          )
        )}
      </div>
    </div>
  );
}
