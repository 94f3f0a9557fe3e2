// The four games' screens (issue 19). Each player's answer goes into their own slot and stays secret until both
// answered; the reveal arrives through sync, with no refresh. A player may answer offline: the answer shows as
// theirs at once and uploads when back.
import { useState, type FormEvent } from 'react';
import { Check, Handshake, Heart, Laugh, X, Zap, type LucideIcon } from 'lucide-react';
import { useReplica } from '../../data/replica.tsx';
import {
  CHOICE_ROUNDS,
  countAgreements,
  decodeChoice,
  describeQuizScore,
  encodeChoice,
  getStoryAuthorSlot,
  joinStory,
  MAX_STORY_ROUNDS,
  parseQuestion,
  parseReactions,
  REACTIONS,
  scoreQuiz,
  STORY_LINE_MAX,
  WHY_MAX,
  type GameType,
  type Pick,
  type RoundQuestion,
} from '../../domain/games.ts';
import { getLabel } from '../../domain/labels.ts';
import { toast } from '../../ui/toast-store.ts';
import {
  addStoryLine,
  answerRound,
  ensureRound,
  finishGame,
  reactToRound,
  type RoundRow,
  type SessionRow,
} from './games-data.ts';

export interface GameProps {
  session: SessionRow;
  me: string;
  rounds: RoundRow[];
  otherName: string;
}

const REACTION_ICONS: Record<string, LucideIcon> = { love: Heart, haha: Laugh, same: Handshake, wow: Zap };

function isRevealed(r: RoundRow): boolean {
  return (
    r.player1_choice !== null &&
    r.player2_choice !== null &&
    !!decodeChoice(r.player1_choice) &&
    !!decodeChoice(r.player2_choice)
  );
}

function requireQuestion(r: RoundRow): RoundQuestion {
  const q = parseQuestion(r.question);
  // A round without a readable question is a broken game: the Game Error fallback says so.
  if (!q) throw new Error(`Round ${r.round_number} has no readable question`);
  return q;
}

function useGameWrite() {
  const [busy, setBusy] = useState(false);
  async function run(what: () => Promise<unknown>) {
    setBusy(true);
    try {
      await what();
    } catch {
      toast({ title: 'Error', description: 'That did not work. Please try again.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  return { busy, run };
}

function Reactions({
  round,
  me,
  otherName,
  otherId,
}: {
  round: RoundRow;
  me: string;
  otherName: string;
  otherId: string;
}) {
  const db = useReplica();
  const reactions = parseReactions(round.reactions);
  const mine = reactions[me];
  const theirs = reactions[otherId];
  const theirLabel = REACTIONS.find((r) => r.key === theirs)?.label;
  return (
    <div className="mt-3">
      <div className="flex flex-wrap gap-2" role="group" aria-label="Your reaction">
        {REACTIONS.map((r) => {
          const Icon = REACTION_ICONS[r.key] ?? Heart;
          return (
            <button
              key={r.key}
              type="button"
              aria-pressed={mine === r.key}
              className={`flex items-center gap-1 rounded-full border px-3 py-1 text-sm ${mine === r.key ? 'border-primary bg-primary text-primary-fg' : 'border-border'}`}
              onClick={() => void reactToRound(db, me, round, mine === r.key ? null : r.key)}
            >
              <Icon aria-hidden="true" className="size-4" />
              {r.label}
            </button>
          );
        })}
      </div>
      {theirLabel && (
        <p className="mt-2 text-sm text-muted" data-testid="their-reaction">
          {otherName} reacted: {theirLabel}
        </p>
      )}
    </div>
  );
}

function NextStep({
  session,
  rounds,
  summary,
}: {
  session: SessionRow;
  rounds: RoundRow[];
  summary: string;
}) {
  const db = useReplica();
  const { busy, run } = useGameWrite();
  const last = rounds[rounds.length - 1];
  if (!last || !isRevealed(last) || session.status !== 'active') return null;
  if (last.round_number >= CHOICE_ROUNDS)
    return (
      <button
        type="button"
        className="btn-primary mt-4 w-full sm:w-auto"
        disabled={busy}
        onClick={() => void run(() => finishGame(db, session, summary))}
      >
        See results
      </button>
    );
  return (
    <div className="mt-4 flex flex-wrap gap-2">
      <button
        type="button"
        className="btn-primary w-full sm:w-auto"
        disabled={busy}
        onClick={() => void run(() => ensureRound(db, session, last.round_number + 1))}
      >
        Next round
      </button>
      <button
        type="button"
        className="btn-secondary w-full sm:w-auto"
        disabled={busy}
        onClick={() => void run(() => finishGame(db, session, summary))}
      >
        Finish game
      </button>
    </div>
  );
}

function optionText(q: RoundQuestion, pick: Pick | undefined): string {
  return pick === 'B' ? (q.optionB ?? 'B') : (q.optionA ?? 'A');
}

/** This-or-That and Would-You-Rather: two options, secret until both picked; Would-You-Rather adds a "why". */
export function ChoiceGame({ session, me, rounds, otherName }: GameProps) {
  const db = useReplica();
  const type = session.game_type as GameType;
  const mySlot = session.player1_id === me ? 1 : 2;
  const { busy, run } = useGameWrite();
  const [pick, setPick] = useState<Pick>();
  const [why, setWhy] = useState('');
  const current = rounds[rounds.length - 1];
  const revealed = rounds.filter(isRevealed);
  const agreement = countAgreements(revealed);
  const summary = `you agreed on ${agreement.same} of ${agreement.of}`;

  function answer(p: Pick) {
    if (!current) return;
    void run(async () => {
      await answerRound(db, session, me, current, encodeChoice(type, { pick: p, why }));
      setPick(undefined);
      setWhy('');
    });
  }

  if (session.status === 'completed')
    return (
      <div className="space-y-3">
        <p className="card text-lg font-semibold" data-testid="game-result">
          You and {otherName} agreed on {agreement.same} of {agreement.of}.
        </p>
        <RoundHistory rounds={revealed} mySlot={mySlot} otherName={otherName} />
      </div>
    );
  if (!current) return <p className="text-muted">Setting up the first round...</p>;
  const q = requireQuestion(current);
  const mine = decodeChoice(current.my_choice);
  const done = isRevealed(current);
  const mineRevealed = decodeChoice(mySlot === 1 ? current.player1_choice : current.player2_choice);
  const theirs = decodeChoice(mySlot === 1 ? current.player2_choice : current.player1_choice);
  // The round before, when the other player moved on first: its reveal stays readable.
  const previous = !done ? revealed.filter((r) => r.round_number < current.round_number).at(-1) : undefined;

  return (
    <div className="space-y-4">
      {previous && <RoundHistory rounds={[previous]} mySlot={mySlot} otherName={otherName} />}
      <section
        aria-label={`Round ${current.round_number}`}
        className="card"
        data-round={current.round_number}
      >
        <p className="text-sm text-muted">
          Round {current.round_number} of {CHOICE_ROUNDS}
          {q.category ? ` · ${getLabel(q.category)}` : ''}
        </p>
        <h2 className="mt-1 text-xl font-semibold">{q.text}</h2>
        {!done && !mine && (
          <div className="mt-4 space-y-3">
            <div className="grid gap-3 sm:grid-cols-2">
              {(['A', 'B'] as const).map((p) => (
                <button
                  key={p}
                  type="button"
                  disabled={busy || session.status !== 'active'}
                  aria-pressed={pick === p}
                  className={`rounded-2xl border-2 p-4 text-left text-lg font-medium transition-colors ${pick === p ? 'border-primary bg-subtle' : 'border-border hover:border-primary'}`}
                  onClick={() => (type === 'this-or-that' ? answer(p) : setPick(p))}
                >
                  {optionText(q, p)}
                </button>
              ))}
            </div>
            {type === 'would-you-rather' && (
              <>
                <label className="block">
                  <span className="text-sm font-medium">Why? (optional)</span>
                  <input
                    className="input mt-1 w-full"
                    maxLength={WHY_MAX}
                    value={why}
                    onChange={(e) => setWhy(e.target.value)}
                  />
                </label>
                <button
                  type="button"
                  className="btn-primary"
                  disabled={!pick || busy}
                  onClick={() => pick && answer(pick)}
                >
                  Lock in answer
                </button>
              </>
            )}
          </div>
        )}
        {!done && mine && (
          <p className="mt-4" role="status">
            You picked <strong>{optionText(q, mine.pick)}</strong>. Waiting for {otherName}...
          </p>
        )}
        {done && (
          <div className="mt-4" data-testid="reveal">
            <ul className="grid gap-2 sm:grid-cols-2">
              <li className="rounded-xl bg-subtle p-3">
                <span className="block text-sm text-muted">You</span>
                <span className="font-medium">{optionText(q, mineRevealed?.pick)}</span>
                {mineRevealed?.why && <span className="block text-sm">"{mineRevealed.why}"</span>}
              </li>
              <li className="rounded-xl bg-subtle p-3">
                <span className="block text-sm text-muted">{otherName}</span>
                <span className="font-medium">{optionText(q, theirs?.pick)}</span>
                {theirs?.why && <span className="block text-sm">"{theirs.why}"</span>}
              </li>
            </ul>
            <p className="mt-2 font-medium">
              {mineRevealed?.pick === theirs?.pick ? 'You think alike!' : 'Opposites attract!'}
            </p>
            <Reactions round={current} me={me} otherName={otherName} otherId={session.other_id} />
          </div>
        )}
        <NextStep session={session} rounds={rounds} summary={summary} />
      </section>
      {revealed.length > 0 && (
        <p className="text-sm text-muted">
          So far you agree on {agreement.same} of {agreement.of}.
        </p>
      )}
    </div>
  );
}

function RoundHistory({
  rounds,
  mySlot,
  otherName,
}: {
  rounds: RoundRow[];
  mySlot: 1 | 2;
  otherName: string;
}) {
  return (
    <ol className="space-y-2" aria-label="Rounds">
      {rounds.map((r) => {
        const q = requireQuestion(r);
        const mine = decodeChoice(mySlot === 1 ? r.player1_choice : r.player2_choice);
        const theirs = decodeChoice(mySlot === 1 ? r.player2_choice : r.player1_choice);
        return (
          <li key={r.id} className="card">
            <p className="font-medium">{q.text}</p>
            <p className="text-sm">
              You: {optionText(q, mine?.pick)} · {otherName}: {optionText(q, theirs?.pick)}
            </p>
          </li>
        );
      })}
    </ol>
  );
}

/** Couple quiz: answer about yourself and guess the other's answer; the score shows how well you know each other. */
export function QuizGame({ session, me, rounds, otherName }: GameProps) {
  const db = useReplica();
  const mySlot = session.player1_id === me ? 1 : 2;
  const { busy, run } = useGameWrite();
  const [self, setSelf] = useState<number>();
  const [guess, setGuess] = useState<number>();
  const current = rounds[rounds.length - 1];
  const revealed = rounds.filter(isRevealed);
  const score = scoreQuiz(revealed);
  const myScore = mySlot === 1 ? score.player1 : score.player2;
  const theirScore = mySlot === 1 ? score.player2 : score.player1;
  const summary = `you guessed ${myScore} of ${score.of}, ${otherName} ${theirScore}`;

  if (session.status === 'completed')
    return (
      <div className="card space-y-2" data-testid="game-result">
        <p className="text-lg font-semibold">
          You guessed {myScore} of {score.of}; {otherName} guessed {theirScore} of {score.of}.
        </p>
        <p>{describeQuizScore(myScore + theirScore, score.of * 2)}</p>
      </div>
    );
  if (!current) return <p className="text-muted">Setting up the first question...</p>;
  const q = requireQuestion(current);
  const options = q.options ?? [];
  const mine = decodeChoice(current.my_choice);
  const done = isRevealed(current);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (self === undefined || guess === undefined || !current) return;
    void run(() => answerRound(db, session, me, current, encodeChoice('couple-quiz', { self, guess })));
  }

  const mineRevealed = decodeChoice(mySlot === 1 ? current.player1_choice : current.player2_choice);
  const theirs = decodeChoice(mySlot === 1 ? current.player2_choice : current.player1_choice);
  const right = (ok: boolean) =>
    ok ? (
      <Check aria-label="right" className="inline size-4 text-green-600" />
    ) : (
      <X aria-label="wrong" className="inline size-4 text-red-600" />
    );

  return (
    <section
      aria-label={`Question ${current.round_number}`}
      className="card space-y-4"
      data-round={current.round_number}
    >
      <p className="text-sm text-muted">
        Question {current.round_number} of {CHOICE_ROUNDS}
      </p>
      <h2 className="text-xl font-semibold">{q.text}</h2>
      {!done && !mine && (
        <form onSubmit={submit} className="space-y-4">
          <fieldset>
            <legend className="font-medium">Your answer</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {options.map((o, i) => (
                <label
                  key={o}
                  className={`flex items-center gap-2 rounded-xl border p-2 ${self === i ? 'border-primary bg-subtle' : 'border-border'}`}
                >
                  <input type="radio" name="self" checked={self === i} onChange={() => setSelf(i)} />
                  {o}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className="font-medium">Your guess for {otherName}</legend>
            <div className="mt-2 grid gap-2 sm:grid-cols-2">
              {options.map((o, i) => (
                <label
                  key={o}
                  className={`flex items-center gap-2 rounded-xl border p-2 ${guess === i ? 'border-primary bg-subtle' : 'border-border'}`}
                >
                  <input type="radio" name="guess" checked={guess === i} onChange={() => setGuess(i)} />
                  {o}
                </label>
              ))}
            </div>
          </fieldset>
          <button
            type="submit"
            className="btn-primary"
            disabled={busy || self === undefined || guess === undefined}
          >
            Lock in answers
          </button>
        </form>
      )}
      {!done && mine && (
        <p role="status">
          You answered <strong>{options[mine.self ?? -1] ?? ''}</strong>. Waiting for {otherName}...
        </p>
      )}
      {done && (
        <div data-testid="reveal" className="space-y-2">
          <p>
            You: <strong>{options[mineRevealed?.self ?? -1]}</strong>. {otherName} guessed{' '}
            {options[theirs?.guess ?? -1]} {right(theirs?.guess === mineRevealed?.self)}
          </p>
          <p>
            {otherName}: <strong>{options[theirs?.self ?? -1]}</strong>. You guessed{' '}
            {options[mineRevealed?.guess ?? -1]} {right(mineRevealed?.guess === theirs?.self)}
          </p>
          <Reactions round={current} me={me} otherName={otherName} otherId={session.other_id} />
        </div>
      )}
      <NextStep session={session} rounds={rounds} summary={summary} />
      {revealed.length > 0 && (
        <p className="text-sm text-muted">
          Score so far: you {myScore}, {otherName} {theirScore}
        </p>
      )}
    </section>
  );
}

/** Story Builder: the theme's opening, then the players take turns adding a line; it reads back as one text. */
export function StoryGame({ session, me, rounds, otherName }: GameProps) {
  const db = useReplica();
  const mySlot = session.player1_id === me ? 1 : 2;
  const { busy, run } = useGameWrite();
  const [line, setLine] = useState('');
  const lines = rounds.map((r) => ({ round: r, q: requireQuestion(r) }));
  const opening = lines[0]?.q;
  const nextRound = (rounds[rounds.length - 1]?.round_number ?? 0) + 1;
  const myTurn = getStoryAuthorSlot(nextRound) === mySlot;
  const story = joinStory(lines.map(({ round, q }) => ({ round_number: round.round_number, text: q.text })));
  const full = nextRound > MAX_STORY_ROUNDS;

  function add(e: FormEvent) {
    e.preventDefault();
    const text = line.trim();
    if (!text) return;
    void run(async () => {
      await addStoryLine(db, session, me, nextRound, text);
      setLine('');
    });
  }

  if (!opening) return <p className="text-muted">Opening the story...</p>;
  if (session.status === 'completed')
    return (
      <section className="card" aria-label="Your story">
        <h2 className="text-xl font-semibold">{opening.title ?? 'Your story'}</h2>
        <p className="mt-3 leading-relaxed whitespace-pre-wrap" data-testid="game-result">
          {story}
        </p>
      </section>
    );
  return (
    <section className="space-y-4" aria-label="Story">
      <div className="card">
        <h2 className="text-xl font-semibold">{opening.title ?? 'Your story'}</h2>
        <ol className="mt-3 space-y-2" aria-label="Story so far">
          {lines.map(({ round, q }) => (
            <li key={round.id} className={q.kind === 'opening' ? 'italic' : ''}>
              {q.kind !== 'opening' && (
                <span className="mr-1 text-sm font-medium text-muted">
                  {q.author === me ? 'You:' : `${otherName}:`}
                </span>
              )}
              {q.text}
            </li>
          ))}
        </ol>
      </div>
      {session.status === 'active' && !full && myTurn && (
        <form onSubmit={add} className="space-y-2">
          <label className="block">
            <span className="font-medium">Your line</span>
            <textarea
              className="input mt-1 w-full"
              rows={2}
              maxLength={STORY_LINE_MAX}
              value={line}
              onChange={(e) => setLine(e.target.value)}
            />
          </label>
          <button type="submit" className="btn-primary" disabled={busy || !line.trim()}>
            Add line
          </button>
        </form>
      )}
      {session.status === 'active' && !myTurn && !full && <p role="status">{otherName}'s turn...</p>}
      {session.status === 'active' && rounds.length >= 3 && (
        <button
          type="button"
          className="btn-secondary"
          disabled={busy}
          onClick={() => void run(() => finishGame(db, session, `${rounds.length - 1} lines`))}
        >
          Finish story
        </button>
      )}
    </section>
  );
}
