// /games: the game portal (issue 19, lazy-loaded for signed-in members): start a game with a match, answer
// invitations, continue games in progress, look back at finished ones. Everything from the replica.
import { useEffect, useRef, useState } from 'react';
import { Gamepad2 } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { useQuery, useReplica } from '../../data/replica.tsx';
import { GAME_STATUS_WORDS, isGameType, type GameType } from '../../domain/games.ts';
import { Modal } from '../../ui/modal.tsx';
import { MemberPhoto, parseList } from '../profile/member-photo.tsx';
import { acceptWithToast, declineWithToast } from './game-actions.ts';
import { GameErrorBoundary } from './game-boundary.tsx';
import { GameIcon } from './game-icons.tsx';
import { useGameSessions, type SessionRow } from './games-data.ts';
import { InviteDialog } from './invite-dialog.tsx';

function SessionItem({ s, me }: { s: SessionRow; me: string }) {
  const db = useReplica();
  const navigate = useNavigate();
  const name = s.other_name ?? 'Your match';
  const invitedMe = s.status === 'pending' && s.player2_id === me;
  return (
    <li className="card flex flex-wrap items-center gap-3" data-testid="game-item">
      <MemberPhoto path={parseList(s.other_photos)[0]} alt="" className="size-10 rounded-full object-cover" />
      <Link to={`/games/${s.id}`} className="min-w-0 flex-1">
        <span className="flex items-center gap-2 font-medium">
          <GameIcon type={s.game_type} className="size-4 text-primary" />
          {s.game_name ?? 'Game'} with {name}
        </span>
        <span className="text-sm text-muted">{GAME_STATUS_WORDS[s.status] ?? s.status}</span>
      </Link>
      {invitedMe && (
        <span className="flex gap-2">
          <button
            type="button"
            className="btn-primary"
            onClick={() => void acceptWithToast(db, s).then((ok) => ok && navigate(`/games/${s.id}`))}
          >
            Accept
          </button>
          <button type="button" className="btn-secondary" onClick={() => void declineWithToast(db, s)}>
            Decline
          </button>
        </span>
      )}
    </li>
  );
}

function Section({
  title,
  items,
  me,
  empty,
}: {
  title: string;
  items: SessionRow[];
  me: string;
  empty?: string;
}) {
  if (items.length === 0 && !empty) return null;
  return (
    <section aria-label={title} className="mt-6">
      <h2 className="text-lg font-semibold">{title}</h2>
      {items.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{empty}</p>
      ) : (
        <ul className="mt-2 space-y-2">
          {items.map((s) => (
            <SessionItem key={s.id} s={s} me={me} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The four games, always on the portal: what each is, and a way to start it. A member with no game yet sees
 * what there is to play rather than an empty page.
 */
function GameList({ onPlay }: { onPlay: (type: GameType, name: string) => void }) {
  const { data: types } = useQuery<{ id: string; name: string; description: string | null }>(
    'select id, name, description from game_types order by sort_order',
  );
  const games = types.filter((t) => isGameType(t.id));
  if (games.length === 0) return null;
  return (
    <section aria-label="The games" className="mt-6">
      <h2 className="text-lg font-semibold">The games</h2>
      <ul className="mt-2 grid gap-3 sm:grid-cols-2">
        {games.map((t) => (
          <li key={t.id} className="card flex flex-col gap-3">
            <span className="flex items-start gap-3">
              <span className="rounded-xl bg-subtle p-2 text-primary">
                <GameIcon type={t.id} className="size-6" />
              </span>
              <span>
                <span className="block font-medium">{t.name}</span>
                {t.description && <span className="block text-sm text-muted">{t.description}</span>}
              </span>
            </span>
            <button
              type="button"
              className="btn-secondary mt-auto self-start"
              aria-label={`Play ${t.name}`}
              aria-haspopup="dialog"
              onClick={() => onPlay(t.id as GameType, t.name)}
            >
              Play
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

type MatchRow = { id: string; name: string | null; photos: string | null };

/**
 * Whom to play with: the member's matches, each a tap that opens the invitation (on the game picked from
 * the list, if one was). A dialog over the page, where the member tapped, not a form at the page's top.
 */
function MatchPicker({
  matches,
  loading,
  gameName,
  onPick,
  onClose,
}: {
  matches: MatchRow[];
  /** The replica has not answered yet: "no matches" would not be true. */
  loading: boolean;
  gameName: string | undefined;
  onPick: (match: { id: string; name: string }) => void;
  onClose: () => void;
}) {
  const title = gameName ? `Play ${gameName} with…` : 'Who will you play with?';
  const list = useRef<HTMLUListElement>(null);
  // Opened before the replica had the matches (still opening, or a match still on its way): the first one
  // takes the focus when they come, as it does when the dialog opens on them.
  const shown = !loading && matches.length > 0;
  useEffect(() => {
    const first = list.current?.querySelector('button');
    if (!shown || !first) return;
    // Only from within this dialog: a dialog opened over it (the match popup) keeps the focus.
    const active = document.activeElement;
    if (!active || active === document.body || first.closest('[role="dialog"]')?.contains(active))
      first.focus();
  }, [shown]);
  return (
    <Modal label={title} onClose={onClose}>
      <h2 className="text-xl font-semibold">{title}</h2>
      {loading ? (
        <p className="mt-4 text-muted" role="status">
          Loading your matches…
        </p>
      ) : matches.length === 0 ? (
        <p className="mt-4">
          Games are played with matches.{' '}
          <Link to="/find-matches" className="link">
            Find Matches
          </Link>
        </p>
      ) : (
        <ul ref={list} className="mt-4 grid gap-2" aria-label="Your matches">
          {matches.map((m) => (
            <li key={m.id}>
              <button
                type="button"
                className="flex w-full items-center gap-3 rounded-xl border border-border p-2 text-left hover:bg-subtle"
                onClick={() => onPick({ id: m.id, name: m.name ?? 'your match' })}
              >
                <MemberPhoto
                  path={parseList(m.photos)[0]}
                  alt=""
                  className="size-10 shrink-0 rounded-full object-cover"
                />
                <span className="min-w-0 truncate font-medium">{m.name ?? 'Member'}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-6 flex justify-end">
        <button type="button" className="btn-secondary" onClick={onClose}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}

function Portal({ me }: { me: string }) {
  // A new device's replica is empty until its first sync: no games and no matches are not known yet.
  const { data: sessions, isLoading } = useGameSessions(me, { emptyMeansLoading: true });
  const { data: matches, isLoading: matchesLoading } = useQuery<MatchRow>(
    `select pp.id, pp.name, pp.photos from matches m
       join public_profiles pp on pp.id = case when m.user_id_1 = ?1 then m.user_id_2 else m.user_id_1 end
      where m.user_id_1 = ?1 or m.user_id_2 = ?1 order by pp.name`,
    [me],
    { emptyMeansLoading: true },
  );
  /** The match picker is open: for any game (New game), or for the one picked from the list of games. */
  const [choosing, setChoosing] = useState<{ type?: GameType; name?: string }>();
  const [inviting, setInviting] = useState<{ id: string; name: string; type?: GameType }>();
  const invitations = sessions.filter((s) => s.status === 'pending' && s.player2_id === me);
  const waiting = sessions.filter((s) => s.status === 'pending' && s.player1_id === me);
  const active = sessions.filter((s) => s.status === 'active');
  const finished = sessions.filter((s) => s.status === 'completed' || s.status === 'declined').slice(0, 20);

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="flex items-center gap-2 text-3xl font-bold">
          <Gamepad2 aria-hidden="true" className="size-8 text-primary" />
          Games
        </h1>
        <button type="button" className="btn-primary" aria-haspopup="dialog" onClick={() => setChoosing({})}>
          New game
        </button>
      </div>
      <p className="mt-1 text-muted">
        Four quick games to play with your matches: a reason to talk, and to laugh.
      </p>
      {isLoading ? (
        <p className="mt-6">Loading...</p>
      ) : (
        <>
          <Section title="Invitations for you" items={invitations} me={me} />
          <Section
            title="In progress"
            items={active}
            me={me}
            empty="No games in progress. Start one with a match!"
          />
          <Section title="Waiting for an answer" items={waiting} me={me} />
          <Section title="Finished" items={finished} me={me} />
          <GameList onPlay={(type, name) => setChoosing({ type, name })} />
        </>
      )}
      {choosing && (
        <MatchPicker
          matches={matches}
          loading={matchesLoading}
          gameName={choosing.name}
          onPick={(m) => {
            setChoosing(undefined);
            setInviting({ ...m, ...(choosing.type ? { type: choosing.type } : {}) });
          }}
          onClose={() => setChoosing(undefined)}
        />
      )}
      {inviting && (
        <InviteDialog
          me={me}
          other={inviting}
          {...(inviting.type ? { initialType: inviting.type } : {})}
          onClose={() => setInviting(undefined)}
        />
      )}
    </>
  );
}

export default function GamePortalPage() {
  const { user } = useAuth();
  return (
    <main id="main" className="mx-auto max-w-3xl p-4 md:p-8">
      <GameErrorBoundary>{() => <Portal me={user?.id ?? ''} />}</GameErrorBoundary>
    </main>
  );
}
