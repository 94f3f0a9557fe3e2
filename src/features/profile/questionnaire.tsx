// The compatibility questionnaire: the member's private answers, what they accept, and how much it matters.
// One save for every answer changed; answers go to the device first and upload with the queue.
import { useMemo, useState } from 'react';
import { usePendingIds, useQuery, useReplica } from '../../data/replica.tsx';
import type { ReplicaRow } from '../../data/schema.ts';
import { toast } from '../../ui/toast-store.ts';
import { parseList } from './member-photo.tsx';
import { PendingNote, useUploadPossible } from './profile-fields.tsx';
import { saveAnswers, type AnswerDraft } from './profile-data.ts';

const IMPORTANCE = ['Irrelevant', 'A little', 'Somewhat', 'Very important'];

interface AnswerForm {
  answer?: number;
  accept: number[];
  importance: number;
}

function fromRow(row: ReplicaRow<'profile_answers'> | undefined): AnswerForm {
  const accept = parseList(row?.acceptable_answers).map(Number);
  return {
    ...(row?.answer !== null && row?.answer !== undefined ? { answer: row.answer } : {}),
    accept,
    importance: row?.importance ?? 2,
  };
}

function sameForm(a: AnswerForm, b: AnswerForm): boolean {
  return (
    a.answer === b.answer &&
    a.importance === b.importance &&
    [...a.accept].sort().join() === [...b.accept].sort().join()
  );
}

export function Questionnaire({
  me,
  collapsible = true,
  saveLabel = 'Save answers',
  onSaved,
}: {
  me: string;
  /** On My Profile the questions open on demand; the builder shows them at once. */
  collapsible?: boolean;
  saveLabel?: string;
  /** Runs after a save that left nothing unsaved (the builder moves on). */
  onSaved?: () => void;
}) {
  const db = useReplica();
  const canUpload = useUploadPossible();
  const pending = usePendingIds('profile_answers').size > 0;
  const { data: questions } = useQuery<ReplicaRow<'compatibility_questions'>>(
    'select * from compatibility_questions order by cast(id as integer)',
  );
  const { data: answers } = useQuery<ReplicaRow<'profile_answers'>>(
    'select * from profile_answers where user_id = ?',
    [me],
  );
  const saved = useMemo(() => new Map(answers.map((a) => [Number(a.question_id), fromRow(a)])), [answers]);
  // Only what the member touched is held here; everything else shows the device's row.
  const [edits, setEdits] = useState<Map<number, AnswerForm>>(new Map());
  const [errors, setErrors] = useState<Map<number, string>>(new Map());
  const [open, setOpen] = useState(!collapsible);
  const [busy, setBusy] = useState(false);

  const formOf = (id: number) => edits.get(id) ?? saved.get(id) ?? fromRow(undefined);
  const changed = [...edits].filter(([id, f]) => !sameForm(f, saved.get(id) ?? fromRow(undefined)));

  function edit(id: number, next: AnswerForm) {
    setEdits((m) => new Map(m).set(id, next));
    if (errors.has(id))
      setErrors((m) => {
        const n = new Map(m);
        n.delete(id);
        return n;
      });
  }

  async function save() {
    const problems = new Map<number, string>();
    const ready: AnswerDraft[] = [];
    for (const [id, f] of changed) {
      if (f.answer === undefined) problems.set(id, 'Choose your answer.');
      else if (f.accept.length === 0) problems.set(id, 'Choose at least one answer you accept.');
      else
        ready.push({
          question_id: id,
          answer: f.answer,
          acceptable_answers: f.accept,
          importance: f.importance,
        });
    }
    setErrors(problems);
    if (problems.size > 0) {
      toast({
        title: 'Please check your answers',
        description: `${problems.size} ${problems.size === 1 ? 'answer needs' : 'answers need'} a choice.`,
        variant: 'destructive',
      });
      return;
    }
    setBusy(true);
    try {
      if (ready.length > 0) {
        await saveAnswers(db, me, ready);
        setEdits(new Map());
        toast(
          canUpload
            ? { title: ready.length === 1 ? 'Answer saved' : `${ready.length} answers saved` }
            : {
                title: ready.length === 1 ? 'Answer saved' : `${ready.length} answers saved`,
                description: 'Kept on this device; it uploads when you are back online.',
              },
        );
      }
      onSaved?.();
    } catch (e) {
      toast({
        title: 'Error',
        description: e instanceof Error ? e.message : 'Could not save. Please try again.',
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="questions-heading" className="card space-y-3">
      <h2 id="questions-heading" className="text-xl font-semibold">
        Compatibility questions ({answers.length}/{questions.length} answered)
      </h2>
      <p className="text-sm text-muted">
        Your answers are private; they only shape the compatibility score others see.
      </p>
      {collapsible && (
        <button
          type="button"
          className="btn-secondary"
          aria-expanded={open}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide questions' : 'Answer questions'}
        </button>
      )}
      {open && (
        <ol className="space-y-4">
          {questions.map((q) => {
            const id = Number(q.id);
            return (
              <QuestionItem
                key={q.id}
                q={q}
                form={formOf(id)}
                onChange={(f) => edit(id, f)}
                error={errors.get(id)}
              />
            );
          })}
        </ol>
      )}
      {(open || !collapsible) && (
        <div className="sticky bottom-16 z-10 flex flex-wrap items-center gap-3 rounded-lg bg-card py-2 md:bottom-0">
          <button type="button" className="btn-primary" disabled={busy} onClick={() => void save()}>
            {saveLabel}
          </button>
          <span className="text-sm text-muted" aria-live="polite">
            {changed.length === 0
              ? 'No unsaved answers.'
              : `${changed.length} unsaved ${changed.length === 1 ? 'answer' : 'answers'}.`}
          </span>
        </div>
      )}
      <PendingNote pending={pending} />
    </section>
  );
}

function QuestionItem({
  q,
  form,
  onChange,
  error,
}: {
  q: ReplicaRow<'compatibility_questions'>;
  form: AnswerForm;
  onChange: (f: AnswerForm) => void;
  error: string | undefined;
}) {
  const options = parseList(q.options);
  const name = `q${q.id}`;
  const { answer, accept, importance } = form;
  return (
    <li className="space-y-2 border-t border-border pt-3" aria-label={q.text ?? undefined}>
      <p className="font-medium">{q.text}</p>
      <fieldset>
        <legend className="text-sm">Your answer</legend>
        {options.map((o, i) => (
          <label key={o} className="mr-3 inline-flex min-h-9 items-center gap-1 text-sm">
            <input
              type="radio"
              name={name}
              checked={answer === i}
              // Answering takes the own answer as acceptable too, the common case; the member can change it.
              onChange={() =>
                onChange({ ...form, answer: i, accept: form.accept.length === 0 ? [i] : form.accept })
              }
            />
            {o}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend className="text-sm">Answers you accept from a match</legend>
        {options.map((o, i) => (
          <label key={o} className="mr-3 inline-flex min-h-9 items-center gap-1 text-sm">
            <input
              type="checkbox"
              checked={accept.includes(i)}
              onChange={() =>
                onChange({
                  ...form,
                  accept: accept.includes(i) ? accept.filter((x) => x !== i) : [...accept, i],
                })
              }
            />
            {o}
          </label>
        ))}
      </fieldset>
      <label className="text-sm">
        Importance{' '}
        <select
          className="input"
          value={importance}
          onChange={(e) => onChange({ ...form, importance: Number(e.target.value) })}
        >
          {IMPORTANCE.map((l, i) => (
            <option key={l} value={i}>
              {l}
            </option>
          ))}
        </select>
      </label>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </li>
  );
}
