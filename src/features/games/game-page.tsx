// /games/:id: one game between two matches (issue 19), inside the spec's Game Error fallback. The invitation is
// answered here or in the thread; rounds follow through sync.
import { useEffect, useRef } from 'react';
import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { useReplica } from '../../data/replica.tsx';
import { describeGameEvent, GAME_STATUS_WORDS, isGameType } from '../../domain/games.ts';
import { MemberPhoto, parseList } from '../profile/member-photo.tsx';
import { acceptWithToast, declineWithToast } from './game-actions.ts';
import { GameErrorBoundary } from './game-boundary.tsx';
import { recordGameEvent, useGameEvents } from './game-events.ts';
import { ChoiceGame, QuizGame, StoryGame } from './game-rounds.tsx';
import { ensureRound, useGameSession, useRounds, type RoundRow, type SessionRow } from './games-data.ts';

function useSyncEvents(session: SessionRow | undefined, rounds: RoundRow[]) {
  const status = useRef<string | undefined>(undefined);
  const revealed = useRef<Set<string> | undefined>(undefined);
  useEffect(() => {
    if (!session) return;
    if (status.current && status.current !== session.status)
      recordGameEvent({
        type: 'GAME_STATE_CHANGED',
        sessionId: session.id,
        detail: GAME_STATUS_WORDS[session.status],
      });
    status.current = session.status;
  }, [session]);
  useEffect(() => {
    if (!session) return;
    const now = new Set(rounds.filter((r) => r.player1_choice && r.player2_choice).map((r) => r.id));
    if (revealed.current)
      for (const r of rounds)
        if (now.has(r.id) && !revealed.current.has(r.id))
          recordGameEvent({
            type: 'GAME_ROUND_COMPLETED',
            sessionId: session.id,
            detail: `round ${r.round_number}`,
          });
    revealed.current = now;
  }, [session, rounds]);
}

function GameScreen({ id, me }: { id: string; me: string }) {
  const db = useReplica();
  const { data: sessions, isLoading } = useGameSession(me, id);
  const session = sessions[0];
  const { data: rounds } = useRounds(me, id);
  const events = useGameEvents(id);
  useSyncEvents(session, rounds);

  // An active game always has its first round; either device makes it (one round whichever does).
  const needsFirstRound = session?.status === 'active' && rounds.length === 0;
  useEffect(() => {
    if (needsFirstRound && session) void ensureRound(db, session, 1).catch(() => undefined);
  }, [needsFirstRound, session, db]);

  if (isLoading) return <p className="p-4">Loading...</p>;
  if (!session)
    return (
      <div className="card">
        <p>This game is not on this device. It may have ended with the match.</p>
        <Link to="/games" className="link mt-2 inline-block">
          All games
        </Link>
      </div>
    );
  // An unknown game cannot be played: the Game Error fallback, not a blank screen.
  if (!isGameType(session.game_type)) throw new Error(`Unknown game type ${session.game_type}`);
  const otherName = session.other_name ?? 'Your match';
  const invited = session.player2_id === me;

  return (
    <div className="space-y-4">
      <header className="flex items-center gap-3">
        <MemberPhoto
          path={parseList(session.other_photos)[0]}
          alt=""
          className="size-12 rounded-full object-cover"
        />
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-bold">{session.game_name ?? 'Game'}</h1>
          <p className="text-sm text-muted">
            with {otherName} ·{' '}
            <span data-testid="game-status">{GAME_STATUS_WORDS[session.status] ?? session.status}</span>
          </p>
        </div>
      </header>
      {session.status === 'pending' && invited && (
        <div className="card space-y-3">
          <p>
            {otherName} invited you to play {session.game_name}.
          </p>
          <div className="flex gap-2">
            <button type="button" className="btn-primary" onClick={() => void acceptWithToast(db, session)}>
              Accept
            </button>
            <button
              type="button"
              className="btn-secondary"
              onClick={() => void declineWithToast(db, session)}
            >
              Decline
            </button>
          </div>
        </div>
      )}
      {session.status === 'pending' && !invited && (
        <p className="card" role="status">
          Waiting for {otherName} to accept your invitation.
        </p>
      )}
      {session.status === 'declined' && (
        <p className="card">{invited ? 'You declined this game.' : `${otherName} declined this game.`}</p>
      )}
      {(session.status === 'active' || session.status === 'completed') &&
        (session.game_type === 'story-builder' ? (
          <StoryGame session={session} me={me} rounds={rounds} otherName={otherName} />
        ) : session.game_type === 'couple-quiz' ? (
          <QuizGame session={session} me={me} rounds={rounds} otherName={otherName} />
        ) : (
          <ChoiceGame session={session} me={me} rounds={rounds} otherName={otherName} />
        ))}
      {events.length > 0 && (
        <details className="text-sm text-muted">
          <summary className="cursor-pointer">Activity on this device</summary>
          <ul className="mt-2 space-y-1">
            {events.slice(-10).map((e) => (
              <li key={`${e.at}-${e.type}`}>{describeGameEvent(e)}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

export default function GamePage() {
  const { id = '' } = useParams();
  const { user } = useAuth();
  return (
    <main id="main" className="mx-auto max-w-2xl p-4 md:p-8">
      <Link to="/games" className="btn-ghost mb-2 inline-flex items-center gap-1 px-2">
        <ArrowLeft aria-hidden="true" className="size-4" />
        All games
      </Link>
      <GameErrorBoundary>
        {(attempt) => <GameScreen key={`${id}:${attempt}`} id={id} me={user?.id ?? ''} />}
      </GameErrorBoundary>
    </main>
  );
}
