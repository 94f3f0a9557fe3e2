// /profile (My Profile) and /profile-builder: photos, about you, city, questionnaire and match preferences, with a completeness meter.
import { ChevronLeft, ChevronRight } from 'lucide-react';
import {
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { usePendingIds, useQuery, useReplica, useStatus } from '../../data/replica.tsx';
import type { ReplicaRow } from '../../data/schema.ts';
import { clearUnsentText, findUnsentText, keepUnsentText } from '../../data/unsent-text.ts';
import { DISTANCE_BANDS } from '../../domain/distance-band.ts';
import { getLabel } from '../../domain/labels.ts';
import { ChipsInput } from '../../ui/chips-input.tsx';
import { toast } from '../../ui/toast-store.ts';
import { CityPicker } from './city-picker.tsx';
import { MemberPhoto, parseList } from './member-photo.tsx';
import {
  markProfileComplete,
  removePhotoFile,
  saveAnswer,
  savePreferences,
  saveProfile,
  uploadPhoto,
} from './profile-api.ts';
import {
  EDUCATION_OPTIONS,
  GENDER_OPTIONS,
  GOAL_OPTIONS,
  MAX_PHOTOS,
  STATUS_OPTIONS,
  SUGGESTED_INTERESTS,
  SUGGESTED_LANGUAGES,
  getCompleteness,
  splitList,
  validatePreferences,
  validateProfile,
  type Errors,
  type PreferencesDraft,
  type ProfileDraft,
} from './profile-rules.ts';

const IMPORTANCE = ['Irrelevant', 'A little', 'Somewhat', 'Very important'];

function toDraft(row: ReplicaRow<'profiles'> | undefined): ProfileDraft {
  return {
    name: row?.name ?? '',
    birthday: row?.birthday ?? '',
    gender: row?.gender ?? '',
    looking_for: parseList(row?.looking_for),
    relationship_goals: row?.relationship_goals ?? '',
    relationship_status: row?.relationship_status ?? '',
    bio: row?.bio ?? '',
    interests: parseList(row?.interests),
    career: row?.career ?? '',
    industry: row?.industry ?? '',
    education_level: row?.education_level ?? '',
    languages: parseList(row?.languages),
    height: row?.height ?? '',
    height_unit: row?.height_unit === 'ft' ? 'ft' : 'cm',
    city: row?.city ?? '',
    state: row?.state ?? '',
    country: row?.country ?? '',
    location_lat: row?.location_lat ? Number(row.location_lat) : null,
    location_lng: row?.location_lng ? Number(row.location_lng) : null,
    photos: parseList(row?.photos),
  };
}

function getAgeText(birthday: string): string {
  if (!birthday) return '';
  const b = new Date(`${birthday}T00:00:00Z`);
  const now = new Date();
  let age = now.getUTCFullYear() - b.getUTCFullYear();
  if (
    now.getUTCMonth() < b.getUTCMonth() ||
    (now.getUTCMonth() === b.getUTCMonth() && now.getUTCDate() < b.getUTCDate())
  )
    age--;
  return Number.isFinite(age) ? `You are ${age}. Others see your age, never your date of birth.` : '';
}

function Field({
  label,
  error,
  children,
  hint,
}: {
  label: string;
  error?: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <label className="block">
      <span className="text-sm font-medium">{label}</span>
      {children}
      {hint && <span className="block text-xs text-muted">{hint}</span>}
      {error && (
        <span role="alert" className="block text-sm text-red-700 dark:text-red-400">
          {error}
        </span>
      )}
    </label>
  );
}

function Checks({
  legend,
  options,
  value,
  onChange,
  error,
}: {
  legend: string;
  options: readonly string[];
  value: string[];
  onChange: (v: string[]) => void;
  error?: string;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium">{legend}</legend>
      {options.map((o) => (
        <label key={o} className="mr-3 inline-flex items-center gap-1 text-sm">
          <input
            type="checkbox"
            checked={value.includes(o)}
            onChange={() => onChange(value.includes(o) ? value.filter((x) => x !== o) : [...value, o])}
          />
          {getLabel(o)}
        </label>
      ))}
      {error && (
        <span role="alert" className="block text-sm text-red-700 dark:text-red-400">
          {error}
        </span>
      )}
    </fieldset>
  );
}

function Select({
  value,
  onChange,
  options,
  id,
}: {
  value: string;
  onChange: (v: string) => void;
  options: readonly string[];
  id?: string;
}) {
  return (
    <select id={id} className="input mt-1 w-full" value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">—</option>
      {options.map((o) => (
        <option key={o} value={o}>
          {getLabel(o)}
        </option>
      ))}
    </select>
  );
}

function PhotosEditor({
  me,
  photos,
  onChange,
}: {
  me: string;
  photos: string[];
  onChange: (p: string[]) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const online = useOnline();
  async function add(files: FileList | null) {
    if (!files?.length) return;
    setError(undefined);
    if (!navigator.onLine) return setError('Photos upload only when you are online.');
    const room = MAX_PHOTOS - photos.length;
    if (room <= 0) return setError(`You can have at most ${MAX_PHOTOS} photos.`);
    setBusy(true);
    try {
      const keys: string[] = [];
      for (const f of [...files].slice(0, room)) keys.push(await uploadPhoto(me, f));
      await onChange([...photos, ...keys]);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Could not upload this photo. Please try again.');
    } finally {
      setBusy(false);
    }
  }
  async function move(i: number, to: number) {
    const next = [...photos];
    const [p] = next.splice(i, 1);
    next.splice(to, 0, p!);
    await onChange(next);
  }
  async function remove(i: number) {
    const key = photos[i]!;
    await onChange(photos.filter((_, j) => j !== i));
    // Offline the file stays on the server, unused; the profile no longer points at it.
    await removePhotoFile(key).catch(() => undefined);
  }
  return (
    <section aria-labelledby="photos-heading" className="card space-y-3">
      <h2 id="photos-heading" className="text-xl font-semibold">
        Photos ({photos.length}/{MAX_PHOTOS})
      </h2>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {photos.map((p, i) => (
          <li key={p} className="space-y-1">
            <MemberPhoto
              path={p}
              alt={i === 0 ? 'Your main photo' : `Your photo ${i + 1}`}
              className="aspect-square w-full rounded-lg object-cover"
            />
            <div className="flex flex-wrap gap-1 text-xs">
              {i === 0 ? (
                <span className="font-semibold">Main photo</span>
              ) : (
                <button type="button" className="btn-ghost px-1" onClick={() => void move(i, 0)}>
                  Make main
                </button>
              )}
              {i > 0 && (
                <button
                  type="button"
                  className="btn-ghost px-1"
                  aria-label={`Move photo ${i + 1} earlier`}
                  onClick={() => void move(i, i - 1)}
                >
                  <ChevronLeft aria-hidden="true" className="size-4" />
                </button>
              )}
              {i < photos.length - 1 && (
                <button
                  type="button"
                  className="btn-ghost px-1"
                  aria-label={`Move photo ${i + 1} later`}
                  onClick={() => void move(i, i + 1)}
                >
                  <ChevronRight aria-hidden="true" className="size-4" />
                </button>
              )}
              <button
                type="button"
                className="btn-ghost px-1"
                aria-label={`Remove photo ${i + 1}`}
                onClick={() => void remove(i)}
              >
                Remove
              </button>
            </div>
          </li>
        ))}
      </ul>
      {!online && (
        <p className="text-sm text-muted">
          You are offline: new photos upload only when you are online. Reordering and removing photos, and
          every other change, are kept on this device until then.
        </p>
      )}
      {photos.length < MAX_PHOTOS && (
        <label
          className={`btn-secondary inline-block ${online ? 'cursor-pointer' : 'cursor-not-allowed opacity-60'}`}
        >
          {busy ? 'Uploading...' : 'Add photos'}
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp"
            multiple
            className="sr-only"
            disabled={busy || !online}
            onChange={(e) => {
              void add(e.target.files);
              e.target.value = '';
            }}
          />
        </label>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </section>
  );
}

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Whether the browser has a network; photos need it, the rest of the profile does not. */
function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => navigator.onLine);
}

/** Whether queued writes can upload now: a network, and the sync stream up (it notices a lost network late). */
function useUploadPossible(): boolean {
  const online = useOnline();
  const { connected } = useStatus();
  return online && connected;
}

/** Says that a write is still in the upload queue, and why, in a polite live region. */
function PendingNote({ pending }: { pending: boolean }) {
  const online = useUploadPossible();
  return (
    <p role="status" className="text-sm text-muted">
      {pending &&
        (online
          ? 'Uploading your changes...'
          : 'Saved on this device. Your changes upload when you are back online.')}
    </p>
  );
}

function Questionnaire({ me }: { me: string }) {
  const { data: questions } = useQuery<ReplicaRow<'compatibility_questions'>>(
    'select * from compatibility_questions order by cast(id as integer)',
  );
  const { data: answers } = useQuery<ReplicaRow<'profile_answers'>>(
    'select * from profile_answers where user_id = ?',
    [me],
  );
  const byQuestion = new Map(answers.map((a) => [Number(a.question_id), a]));
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="questions-heading" className="card space-y-3">
      <h2 id="questions-heading" className="text-xl font-semibold">
        Compatibility questions ({answers.length}/{questions.length} answered)
      </h2>
      <p className="text-sm text-muted">
        Your answers are private; they only shape the compatibility score others see.
      </p>
      <button type="button" className="btn-secondary" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide questions' : 'Answer questions'}
      </button>
      {open && (
        <ol className="space-y-4">
          {questions.map((q) => (
            <QuestionItem key={q.id} me={me} q={q} saved={byQuestion.get(Number(q.id))} />
          ))}
        </ol>
      )}
    </section>
  );
}

function QuestionItem({
  me,
  q,
  saved,
}: {
  me: string;
  q: ReplicaRow<'compatibility_questions'>;
  saved?: ReplicaRow<'profile_answers'>;
}) {
  const options = parseList(q.options);
  const [answer, setAnswer] = useState<number | undefined>(saved?.answer ?? undefined);
  const [accept, setAccept] = useState<number[]>(
    saved?.acceptable_answers ? (JSON.parse(saved.acceptable_answers) as number[]) : [],
  );
  const [importance, setImportance] = useState<number>(saved?.importance ?? 2);
  const [error, setError] = useState<string>();
  const name = `q${q.id}`;
  async function save() {
    if (answer === undefined) return setError('Choose your answer.');
    if (accept.length === 0) return setError('Choose at least one answer you accept.');
    setError(undefined);
    try {
      await saveAnswer(me, { question_id: Number(q.id), answer, acceptable_answers: accept, importance });
      toast({ title: 'Answer saved' });
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Could not save. Please try again.');
    }
  }
  return (
    <li className="space-y-2 border-t border-border pt-3">
      <p className="font-medium">{q.text}</p>
      <fieldset>
        <legend className="text-sm">Your answer</legend>
        {options.map((o, i) => (
          <label key={o} className="mr-3 inline-flex items-center gap-1 text-sm">
            <input type="radio" name={name} checked={answer === i} onChange={() => setAnswer(i)} />
            {o}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend className="text-sm">Answers you accept from a match</legend>
        {options.map((o, i) => (
          <label key={o} className="mr-3 inline-flex items-center gap-1 text-sm">
            <input
              type="checkbox"
              checked={accept.includes(i)}
              onChange={() => setAccept(accept.includes(i) ? accept.filter((x) => x !== i) : [...accept, i])}
            />
            {o}
          </label>
        ))}
      </fieldset>
      <label className="text-sm">
        Importance{' '}
        <select className="input" value={importance} onChange={(e) => setImportance(Number(e.target.value))}>
          {IMPORTANCE.map((l, i) => (
            <option key={l} value={i}>
              {l}
            </option>
          ))}
        </select>
      </label>{' '}
      <button type="button" className="btn-secondary" onClick={() => void save()}>
        Save answer
      </button>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </li>
  );
}

/**
 * Keeps a form in step with its row on the device (the first sync, the server's version, a refused write
 * rolled back) as long as the member has not edited it since; returns the last state the form took from
 * the row or saved, for the caller to move on save.
 */
function useFollowRow<T>(synced: T, value: T, setValue: (v: T) => void): { current: T } {
  const base = useRef(synced);
  const syncedKey = JSON.stringify(synced);
  useEffect(() => {
    if (JSON.stringify(value) === JSON.stringify(base.current)) setValue(synced);
    base.current = synced;
    // Only a change of the row matters here, not each keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [syncedKey]);
  return base;
}

function PreferencesEditor({
  me,
  row,
  onSaved,
}: {
  me: string;
  row?: ReplicaRow<'match_preferences'>;
  onSaved: () => Promise<void>;
}) {
  const db = useReplica();
  const pending = usePendingIds('match_preferences').has(me);
  const synced = useMemo<PreferencesDraft>(
    () => ({
      min_age: row?.min_age ?? 18,
      max_age: row?.max_age ?? 120,
      genders: parseList(row?.genders),
      max_distance_band: row?.max_distance_band ?? '',
      relationship_goals: parseList(row?.relationship_goals),
    }),
    [row],
  );
  const [p, setP] = useState<PreferencesDraft>(synced);
  const base = useFollowRow(synced, p, setP);
  const [errors, setErrors] = useState<Errors>({});
  async function save() {
    const e = validatePreferences(p);
    setErrors(e);
    if (Object.keys(e).length) return;
    try {
      base.current = p;
      await savePreferences(db, me, p);
      await onSaved();
      toast({ title: 'Preferences saved' });
    } catch (err) {
      setErrors({ form: err instanceof Error ? err.message : 'Could not save. Please try again.' });
    }
  }
  return (
    <section aria-labelledby="prefs-heading" className="card space-y-3">
      <h2 id="prefs-heading" className="text-xl font-semibold">
        Match preferences
      </h2>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Minimum age" error={errors['min_age']}>
          <input
            className="input mt-1 w-full"
            type="number"
            min={18}
            max={120}
            value={p.min_age}
            onChange={(e) => setP({ ...p, min_age: Number(e.target.value) })}
          />
        </Field>
        <Field label="Maximum age" error={errors['max_age']}>
          <input
            className="input mt-1 w-full"
            type="number"
            min={18}
            max={120}
            value={p.max_age}
            onChange={(e) => setP({ ...p, max_age: Number(e.target.value) })}
          />
        </Field>
      </div>
      <Checks
        legend="Show me (none means everyone)"
        options={GENDER_OPTIONS}
        value={p.genders}
        onChange={(genders) => setP({ ...p, genders })}
        error={errors['genders']}
      />
      <Field label="Maximum distance" error={errors['max_distance_band']}>
        <Select
          value={p.max_distance_band}
          onChange={(v) => setP({ ...p, max_distance_band: v })}
          options={DISTANCE_BANDS}
        />
      </Field>
      <Checks
        legend="Relationship goals (none means any)"
        options={GOAL_OPTIONS}
        value={p.relationship_goals}
        onChange={(relationship_goals) => setP({ ...p, relationship_goals })}
        error={errors['relationship_goals']}
      />
      {errors['form'] && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {errors['form']}
        </p>
      )}
      <button type="button" className="btn-primary" onClick={() => void save()}>
        Save preferences
      </button>
      <PendingNote pending={pending} />
    </section>
  );
}

interface ProfileForm {
  draft: ProfileDraft;
  interestsText: string;
  languagesText: string;
}

function toForm(draft: ProfileDraft): ProfileForm {
  return { draft, interestsText: draft.interests.join(', '), languagesText: draft.languages.join(', ') };
}

/** This device's copy of a profile form the member edited and has not saved (a reload or close keeps it). */
function findUnsavedForm(key: string, fallback: ProfileForm): ProfileForm | undefined {
  const kept = findUnsentText(key);
  if (!kept) return undefined;
  try {
    const v = JSON.parse(kept.text) as Partial<ProfileForm>;
    if (typeof v.draft !== 'object' || v.draft === null) return undefined;
    return {
      // Fields added since it was kept take the row's value.
      draft: { ...fallback.draft, ...v.draft },
      interestsText: typeof v.interestsText === 'string' ? v.interestsText : fallback.interestsText,
      languagesText: typeof v.languagesText === 'string' ? v.languagesText : fallback.languagesText,
    };
  } catch {
    return undefined;
  }
}

export default function ProfilePage({ builder = false }: { builder?: boolean }) {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const navigate = useNavigate();
  const db = useReplica();
  const pending = usePendingIds('profiles').has(me);
  const canUpload = useUploadPossible();
  const { data: rows, isLoading } = useQuery<ReplicaRow<'profiles'>>('select * from profiles where id = ?', [
    me,
  ]);
  const { data: prefRows } = useQuery<ReplicaRow<'match_preferences'>>(
    'select * from match_preferences where id = ?',
    [me],
  );
  const { data: answerCount } = useQuery<{ n: number }>(
    'select count(*) as n from profile_answers where user_id = ?',
    [me],
  );
  const row = rows[0];
  const synced = useMemo(() => toForm(toDraft(row)), [row]);
  const unsavedKey = `profile:${me}`;
  const [restored] = useState(() => findUnsavedForm(unsavedKey, synced));
  const [form, setForm] = useState<ProfileForm>(restored ?? synced);
  // The row fills the form, and keeps it in step until the member edits it (then the member's text wins).
  const base = useFollowRow(synced, form, setForm);
  // Every edit is written through to this device at once (a layout effect runs in the keystroke's own task),
  // so a reload or close right after typing keeps it; a form back at the saved version leaves nothing kept.
  useLayoutEffect(() => {
    if (JSON.stringify(form) === JSON.stringify(base.current)) clearUnsentText(unsavedKey);
    else keepUnsentText(unsavedKey, JSON.stringify(form));
  }, [form, base, unsavedKey]);
  const { draft, interestsText, languagesText } = form;
  const [errors, setErrors] = useState<Errors>({});
  const setDraft = (d: ProfileDraft) => setForm((f) => ({ ...f, draft: d }));
  const set = (p: Partial<ProfileDraft>) => setForm((f) => ({ ...f, draft: { ...f.draft, ...p } }));
  const setInterestsText = (t: string) => setForm((f) => ({ ...f, interestsText: t }));
  const setLanguagesText = (t: string) => setForm((f) => ({ ...f, languagesText: t }));
  const hasPreferences = prefRows.length > 0;
  const completeness = getCompleteness(draft, answerCount[0]?.n ?? 0, hasPreferences);

  async function persist(next: ProfileDraft, successTitle: string) {
    const e = validateProfile(next);
    setErrors(e);
    if (Object.keys(e).length) {
      toast({ title: 'Please check your profile', description: Object.values(e)[0], variant: 'destructive' });
      return false;
    }
    try {
      const done = getCompleteness(next, answerCount[0]?.n ?? 0, hasPreferences).missing.length === 0;
      const saved = toForm(next);
      base.current = saved;
      setForm(saved);
      await saveProfile(db, me, next, done ? { match_preferences_completed: true } : {});
      toast(
        canUpload
          ? { title: successTitle }
          : { title: successTitle, description: 'Kept on this device; it uploads when you are back online.' },
      );
      return true;
    } catch (err) {
      const message = err instanceof Error ? err.message : 'Could not save. Please try again.';
      setErrors({ form: message });
      toast({ title: 'Error', description: message, variant: 'destructive' });
      return false;
    }
  }

  async function saveAll() {
    const next = { ...draft, interests: splitList(interestsText), languages: splitList(languagesText) };
    const ok = await persist(next, 'Profile saved');
    if (ok && builder && hasPreferences) void navigate('/find-matches');
  }

  if (isLoading && !row) return <p className="p-8">Loading...</p>;

  return (
    <main id="main" className="mx-auto max-w-3xl space-y-4 p-4 md:p-8">
      <h1 className="text-3xl font-bold">{builder ? 'Build your profile' : 'My Profile'}</h1>
      <section aria-label="Profile completeness" className="card">
        <div className="flex items-center justify-between">
          <span className="font-medium">Profile {completeness.percent}% complete</span>
        </div>
        <div
          className="mt-2 h-2 rounded bg-subtle"
          role="progressbar"
          aria-label="Profile completeness"
          aria-valuenow={completeness.percent}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="h-2 rounded bg-primary" style={{ width: `${completeness.percent}%` }} />
        </div>
        {completeness.missing.length > 0 && (
          <p className="mt-2 text-sm text-muted">Still to add: {completeness.missing.join(', ')}.</p>
        )}
      </section>

      <PhotosEditor
        me={me}
        photos={draft.photos}
        onChange={async (photos) => {
          const next = { ...draft, photos };
          setDraft(next);
          await persist(next, 'Photos updated');
        }}
      />

      <section aria-labelledby="about-heading" className="card grid gap-3 sm:grid-cols-2">
        <h2 id="about-heading" className="text-xl font-semibold sm:col-span-2">
          About you
        </h2>
        <Field label="Name" error={errors['name']}>
          <input
            className="input mt-1 w-full"
            maxLength={100}
            value={draft.name}
            onChange={(e) => set({ name: e.target.value })}
            autoComplete="name"
          />
        </Field>
        <Field label="Date of birth" error={errors['birthday']} hint={getAgeText(draft.birthday)}>
          <input
            className="input mt-1 w-full"
            type="date"
            value={draft.birthday}
            onChange={(e) => set({ birthday: e.target.value })}
          />
        </Field>
        <Field label="Gender" error={errors['gender']}>
          <Select value={draft.gender} onChange={(v) => set({ gender: v })} options={GENDER_OPTIONS} />
        </Field>
        <Field label="Relationship goal" error={errors['relationship_goals']}>
          <Select
            value={draft.relationship_goals}
            onChange={(v) => set({ relationship_goals: v })}
            options={GOAL_OPTIONS}
          />
        </Field>
        <div className="sm:col-span-2">
          <Checks
            legend="Looking for"
            options={GENDER_OPTIONS}
            value={draft.looking_for}
            onChange={(v) => set({ looking_for: v })}
            error={errors['looking_for']}
          />
        </div>
        <Field label="Relationship status" error={errors['relationship_status']}>
          <Select
            value={draft.relationship_status}
            onChange={(v) => set({ relationship_status: v })}
            options={STATUS_OPTIONS}
          />
        </Field>
        <Field label="Education" error={errors['education_level']}>
          <Select
            value={draft.education_level}
            onChange={(v) => set({ education_level: v })}
            options={EDUCATION_OPTIONS}
          />
        </Field>
        <Field label="Career" error={errors['career']}>
          <input
            className="input mt-1 w-full"
            maxLength={100}
            value={draft.career}
            onChange={(e) => set({ career: e.target.value })}
          />
        </Field>
        <Field label="Industry" error={errors['industry']}>
          <input
            className="input mt-1 w-full"
            maxLength={100}
            value={draft.industry}
            onChange={(e) => set({ industry: e.target.value })}
          />
        </Field>
        <Field label="Height" error={errors['height']}>
          <span className="mt-1 flex gap-2">
            <input
              className="input w-full"
              inputMode="decimal"
              value={draft.height}
              onChange={(e) => set({ height: e.target.value })}
              aria-label="Height value"
            />
            <select
              className="input"
              aria-label="Height unit"
              value={draft.height_unit}
              onChange={(e) => set({ height_unit: e.target.value === 'ft' ? 'ft' : 'cm' })}
            >
              <option value="cm">cm</option>
              <option value="ft">ft</option>
            </select>
          </span>
        </Field>
        <div className="sm:col-span-2">
          <ChipsInput
            label="Languages"
            value={splitList(languagesText)}
            onChange={(list) => setLanguagesText(list.join(', '))}
            suggestions={SUGGESTED_LANGUAGES}
            max={10}
            maxLength={40}
            {...(errors['languages'] ? { error: errors['languages'] } : {})}
          />
        </div>
        <div className="sm:col-span-2">
          <ChipsInput
            label="Interests"
            value={splitList(interestsText)}
            onChange={(list) => setInterestsText(list.join(', '))}
            suggestions={SUGGESTED_INTERESTS}
            max={30}
            maxLength={40}
            {...(errors['interests'] ? { error: errors['interests'] } : {})}
          />
        </div>
        <div className="sm:col-span-2">
          <Field label="Bio" error={errors['bio']} hint={`${draft.bio.length}/2000`}>
            <textarea
              className="input mt-1 w-full"
              rows={4}
              maxLength={2000}
              value={draft.bio}
              onChange={(e) => set({ bio: e.target.value })}
            />
          </Field>
        </div>
        <div className="sm:col-span-2">
          <CityPicker value={draft} onPick={set} error={errors['city']} />
        </div>
        {restored && JSON.stringify(form) !== JSON.stringify(base.current) && (
          <p role="status" className="text-sm text-muted sm:col-span-2" data-testid="unsaved-restored">
            Your unsaved changes are back. Save your profile to keep them.
          </p>
        )}
        {errors['form'] && (
          <p role="alert" className="text-sm text-red-700 sm:col-span-2 dark:text-red-400">
            {errors['form']}
          </p>
        )}
        <button type="button" className="btn-primary sm:col-span-2" onClick={() => void saveAll()}>
          Save profile
        </button>
        <div className="sm:col-span-2">
          <PendingNote pending={pending} />
        </div>
      </section>

      <Questionnaire me={me} />
      <PreferencesEditor
        me={me}
        row={prefRows[0]}
        onSaved={async () => {
          // Judged on the saved profile (the row), so unsaved edits in the form are neither counted nor written.
          if (getCompleteness(synced.draft, answerCount[0]?.n ?? 0, true).missing.length === 0)
            await markProfileComplete(db, me).catch(() => undefined);
        }}
      />
    </main>
  );
}
