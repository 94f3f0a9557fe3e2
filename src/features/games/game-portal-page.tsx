// /games: the game portal (issue 19, lazy-loaded for signed-in members): start a game with a match, answer
// invitations, continue games in progress, look back at finished ones. Everything from the replica.
import { useEffect, useRef, useState } from 'react';
import { Gamepad2 } from 'lucide-react';
import { Link, useNavigate } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { useQuery, useReplica } from '../../data/replica.tsx';
import { GAME_STATUS_WORDS, isGameType, type GameType } from '../../domain/games.ts';
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
function GameList({ onPlay }: { onPlay: (type: GameType) => void }) {
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
              onClick={() => onPlay(t.id as GameType)}
            >
              Play
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Portal({ me }: { me: string }) {
  const { data: sessions, isLoading } = useGameSessions(me);
  const { data: matches } = useQuery<{ id: string; name: string | null }>(
    `select pp.id, pp.name from matches m
       join public_profiles pp on pp.id = case when m.user_id_1 = ?1 then m.user_id_2 else m.user_id_1 end
      where m.user_id_1 = ?1 or m.user_id_2 = ?1 order by pp.name`,
    [me],
  );
  const [choosing, setChoosing] = useState(false);
  const [partner, setPartner] = useState('');
  const [inviting, setInviting] = useState<{ id: string; name: string }>();
  /** The game picked from the list of games, preselected when the invitation dialog opens. */
  const [preferred, setPreferred] = useState<GameType>();
  const chooser = useRef<HTMLDivElement>(null);
  // After a game is picked from the list, the match to play with is chosen at the top of the page: the
  // member is taken there, to the list of matches once the replica has them.
  const [focusChooser, setFocusChooser] = useState(false);
  useEffect(() => {
    if (!focusChooser || !chooser.current) return;
    const select = chooser.current.querySelector('select');
    (select ?? chooser.current).focus();
    if (select) setFocusChooser(false);
  }, [focusChooser, matches.length]);
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
        <button
          type="button"
          className="btn-primary"
          onClick={() => {
            setPreferred(undefined);
            setFocusChooser(false);
            setChoosing((x) => !x);
          }}
          aria-expanded={choosing}
        >
          New game
        </button>
      </div>
      <p className="mt-1 text-muted">
        Four quick games to play with your matches: a reason to talk, and to laugh.
      </p>
      {choosing && (
        <div ref={chooser} tabIndex={-1} className="card mt-4 flex flex-wrap items-end gap-2">
          {matches.length === 0 ? (
            <p>
              Games are played with matches.{' '}
              <Link to="/find-matches" className="link">
                Find Matches
              </Link>
            </p>
          ) : (
            <>
              <label className="min-w-0 flex-1">
                <span className="text-sm font-medium">Play with</span>
                <select
                  className="input mt-1 w-full"
                  value={partner}
                  onChange={(e) => setPartner(e.target.value)}
                >
                  <option value="">Choose a match</option>
                  {matches.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name ?? 'Member'}
                    </option>
                  ))}
                </select>
              </label>
              <button
                type="button"
                className="btn-primary"
                disabled={!partner}
                onClick={() =>
                  setInviting({
                    id: partner,
                    name: matches.find((m) => m.id === partner)?.name ?? 'your match',
                  })
                }
              >
                Choose a game
              </button>
            </>
          )}
        </div>
      )}
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
          <GameList
            onPlay={(type) => {
              setPreferred(type);
              setChoosing(true);
              setFocusChooser(true);
            }}
          />
        </>
      )}
      {inviting && (
        <InviteDialog
          me={me}
          other={inviting}
          {...(preferred ? { initialType: preferred } : {})}
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
