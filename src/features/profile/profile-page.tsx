// /profile (My Profile: everything on one page) and /profile-builder (the same form in short steps, one save
// each): photos, about you, city, match preferences and the questionnaire, with a completeness meter.
import { useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { Eye } from 'lucide-react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { usePendingIds, useQuery, useReplica } from '../../data/replica.tsx';
import type { ReplicaRow } from '../../data/schema.ts';
import { clearUnsentText, findUnsentText, keepUnsentText } from '../../data/unsent-text.ts';
import { ChipsInput } from '../../ui/chips-input.tsx';
import { toast } from '../../ui/toast-store.ts';
import { CityPicker } from './city-picker.tsx';
import { parseList } from './member-photo.tsx';
import { MemberProfileDialog } from './member-profile-dialog.tsx';
import { PhotosEditor } from './photos-editor.tsx';
import { PreferencesEditor } from './preferences-editor.tsx';
import { Checks, Field, PendingNote, Select, useFollowRow, useUploadPossible } from './profile-fields.tsx';
import { markProfileComplete, saveProfile } from './profile-data.ts';
import {
  BUILDER_STEPS,
  EDUCATION_OPTIONS,
  GENDER_OPTIONS,
  GOAL_OPTIONS,
  STATUS_OPTIONS,
  SUGGESTED_INTERESTS,
  SUGGESTED_LANGUAGES,
  getBuilderStep,
  getCompleteness,
  splitList,
  validateBuilderStep,
  validateProfile,
  type BuilderStepId,
  type Errors,
  type ProfileDraft,
} from './profile-rules.ts';
import { Questionnaire } from './questionnaire.tsx';

function toDraft(row: ReplicaRow<'profiles'>): ProfileDraft {
  return {
    name: row.name ?? '',
    birthday: row.birthday ?? '',
    gender: row.gender ?? '',
    looking_for: parseList(row.looking_for),
    relationship_goals: row.relationship_goals ?? '',
    relationship_status: row.relationship_status ?? '',
    bio: row.bio ?? '',
    interests: parseList(row.interests),
    career: row.career ?? '',
    industry: row.industry ?? '',
    education_level: row.education_level ?? '',
    languages: parseList(row.languages),
    height: row.height ?? '',
    height_unit: row.height_unit === 'ft' ? 'ft' : 'cm',
    city: row.city ?? '',
    state: row.state ?? '',
    country: row.country ?? '',
    location_lat: row.location_lat ? Number(row.location_lat) : null,
    location_lng: row.location_lng ? Number(row.location_lng) : null,
    photos: parseList(row.photos),
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
  const { data: rows } = useQuery<ReplicaRow<'profiles'>>('select * from profiles where id = ?', [me]);
  const row = rows[0];
  // The member's own row exists from sign-up on (the server makes it with the account), so until it is on this
  // device there is nothing to edit: a blank form read as if the name and everything else were lost, and a
  // photo added then was refused for the missing name. Waiting on the first sync alone was not enough: the
  // engine reports it a moment before the page's query has read its rows. The form starts from the row.
  if (!row) return <ProfileLoading builder={builder} />;
  return <ProfileEditor builder={builder} me={me} row={row} />;
}

/** The page's heading and the shapes of its sections while the member's row is on its way to this device. */
function ProfileLoading({ builder }: { builder: boolean }) {
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-4 p-4 md:p-8">
      <h1 className="text-3xl font-bold">{builder ? 'Build your profile' : 'My Profile'}</h1>
      <div role="status" aria-label="Loading your profile" className="space-y-4">
        {['h-20', 'h-56', 'h-96'].map((height) => (
          <div key={height} className={`${height} rounded-xl bg-subtle motion-safe:animate-pulse`} />
        ))}
      </div>
    </main>
  );
}

function ProfileEditor({ builder, me, row }: { builder: boolean; me: string; row: ReplicaRow<'profiles'> }) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const db = useReplica();
  const pending = usePendingIds('profiles').has(me);
  const canUpload = useUploadPossible();
  const { data: prefRows } = useQuery<ReplicaRow<'match_preferences'>>(
    'select * from match_preferences where id = ?',
    [me],
  );
  const { data: answerCount } = useQuery<{ n: number }>(
    'select count(*) as n from profile_answers where user_id = ?',
    [me],
  );
  const synced = useMemo(() => toForm(toDraft(row)), [row]);
  const unsavedKey = `profile:${me}`;
  const [restored] = useState(() => findUnsavedForm(unsavedKey, synced));
  const [form, setForm] = useState<ProfileForm>(restored ?? synced);
  // The row fills the form, and keeps it in step until the member edits it (then the member's text wins).
  const base = useFollowRow(synced, setForm);
  // Every edit is written through to this device at once (a layout effect runs in the keystroke's own task),
  // so a reload or close right after typing keeps it; a form back at the saved version leaves nothing kept.
  useLayoutEffect(() => {
    if (JSON.stringify(form) === JSON.stringify(base.current)) clearUnsentText(unsavedKey);
    else keepUnsentText(unsavedKey, JSON.stringify(form));
  }, [form, base, unsavedKey]);
  const { draft, interestsText, languagesText } = form;
  const [errors, setErrors] = useState<Errors>({});
  const [previewing, setPreviewing] = useState(false);
  const setDraft = (d: ProfileDraft) => setForm((f) => ({ ...f, draft: d }));
  const set = (p: Partial<ProfileDraft>) => setForm((f) => ({ ...f, draft: { ...f.draft, ...p } }));
  const setInterestsText = (t: string) => setForm((f) => ({ ...f, interestsText: t }));
  const setLanguagesText = (t: string) => setForm((f) => ({ ...f, languagesText: t }));
  const hasPreferences = prefRows.length > 0;
  const answers = answerCount[0]?.n ?? 0;
  const completeness = getCompleteness(draft, answers, hasPreferences);
  const stepIndex = getBuilderStep(params.get('step'));
  const step = BUILDER_STEPS[stepIndex]!;

  async function persist(next: ProfileDraft, successTitle: string, check: Errors = validateProfile(next)) {
    setErrors(check);
    if (Object.keys(check).length) {
      toast({
        title: 'Please check your profile',
        description: Object.values(check)[0],
        variant: 'destructive',
      });
      return false;
    }
    const before = { current: base.current, taken: base.taken };
    try {
      const done = getCompleteness(next, answers, hasPreferences).missing.length === 0;
      const saved = toForm(next);
      base.current = saved;
      base.taken = saved;
      setForm(saved);
      await saveProfile(db, me, next, done ? { match_preferences_completed: true } : {}, before.taken.draft);
      toast(
        canUpload
          ? { title: successTitle }
          : { title: successTitle, description: 'Kept on this device; it uploads when you are back online.' },
      );
      return true;
    } catch (err) {
      // Not written: the form stays unsaved (kept on this device) and a second try writes the same changes.
      Object.assign(base, before);
      const message = err instanceof Error ? err.message : 'Could not save. Please try again.';
      setErrors({ form: message });
      toast({ title: 'Error', description: message, variant: 'destructive' });
      return false;
    }
  }

  const withLists = () => ({
    ...draft,
    interests: splitList(interestsText),
    languages: splitList(languagesText),
  });

  async function saveAll() {
    await persist(withLists(), 'Profile saved');
  }

  /** Moves the builder to a step; each step is an entry in the history, so Back on a phone goes one step back. */
  function goToStep(i: number) {
    const next = BUILDER_STEPS[i];
    if (next) setParams({ step: next.id });
    window.scrollTo({ top: 0 });
  }

  async function finish() {
    // Counted on the device now: answers saved a moment ago are not in this render's count yet.
    const saved = await db
      .getOptional<{ n: number }>('select count(*) as n from profile_answers where user_id = ?', [me])
      .catch(() => null);
    if (getCompleteness(synced.draft, saved?.n ?? answers, hasPreferences).missing.length === 0)
      await markProfileComplete(db, me).catch(() => undefined);
    void navigate('/find-matches');
  }

  async function saveStep(id: BuilderStepId) {
    const next = withLists();
    if (await persist(next, 'Saved', validateBuilderStep(id, next))) goToStep(stepIndex + 1);
  }

  const basicsFields = (
    <>
      <Field label="Name" error={errors['name']}>
        <input
          className="input mt-1 w-full"
          maxLength={100}
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
          autoComplete="given-name"
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
    </>
  );

  const aboutFields = (
    <>
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
    </>
  );

  const placeField = (
    <div className="sm:col-span-2">
      <CityPicker value={draft} onPick={set} error={errors['city']} />
    </div>
  );

  const formNotes = (
    <>
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
    </>
  );

  const photos = (
    <PhotosEditor
      me={me}
      photos={draft.photos}
      onChange={async (list) => {
        const next = { ...draft, photos: list };
        setDraft(next);
        await persist(next, 'Photos updated');
      }}
    />
  );

  const meter = (
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
  );

  if (!builder)
    return (
      <main id="main" className="mx-auto max-w-3xl space-y-4 p-4 md:p-8">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h1 className="text-3xl font-bold">My Profile</h1>
          {/* What other members see: the public card the server keeps (saved changes, once they are up). */}
          <button type="button" className="btn-secondary" onClick={() => setPreviewing(true)}>
            <Eye aria-hidden="true" className="size-4" />
            Preview
          </button>
        </div>
        {previewing && (
          <MemberProfileDialog memberId={me} fallbackName="You" onClose={() => setPreviewing(false)}>
            <p className="w-full text-center text-sm text-muted">
              This is how other members see your profile.
            </p>
          </MemberProfileDialog>
        )}
        {meter}
        {photos}
        <section aria-labelledby="about-heading" className="card grid gap-3 sm:grid-cols-2">
          <h2 id="about-heading" className="text-xl font-semibold sm:col-span-2">
            About you
          </h2>
          {basicsFields}
          {aboutFields}
          {placeField}
          {formNotes}
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
            if (getCompleteness(synced.draft, answers, true).missing.length === 0)
              await markProfileComplete(db, me).catch(() => undefined);
          }}
        />
      </main>
    );

  const last = stepIndex === BUILDER_STEPS.length - 1;
  const back =
    stepIndex > 0 ? (
      <button type="button" className="btn-secondary" onClick={() => goToStep(stepIndex - 1)}>
        Back
      </button>
    ) : null;
  const skip = (
    <button
      type="button"
      className="btn-ghost"
      onClick={() => (last ? void finish() : goToStep(stepIndex + 1))}
    >
      Skip for now
    </button>
  );
  const fieldsStep = (fields: ReactNode) => (
    <section aria-labelledby="step-heading" className="card grid gap-3 sm:grid-cols-2">
      <h2 id="step-heading" className="text-xl font-semibold sm:col-span-2">
        {step.title}
      </h2>
      <p className="-mt-2 text-sm text-muted sm:col-span-2">{step.hint}</p>
      {fields}
      {formNotes}
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <button type="button" className="btn-primary" onClick={() => void saveStep(step.id)}>
          Save and continue
        </button>
        {back}
        <PendingNote pending={pending} />
      </div>
    </section>
  );

  return (
    <main id="main" className="mx-auto max-w-3xl space-y-4 p-4 md:p-8">
      <h1 className="text-3xl font-bold">Build your profile</h1>
      <nav aria-label="Profile steps" className="space-y-2">
        <p className="text-sm font-medium" data-testid="builder-step">
          Step {stepIndex + 1} of {BUILDER_STEPS.length}: {step.title}
        </p>
        <ol className="flex gap-1" aria-label="Steps">
          {BUILDER_STEPS.map((s, i) => (
            <li key={s.id} className="flex-1">
              <button
                type="button"
                aria-label={`${s.title}${i < stepIndex ? ' (done)' : ''}`}
                aria-current={i === stepIndex ? 'step' : undefined}
                onClick={() => goToStep(i)}
                className="flex h-6 w-full items-center"
              >
                <span
                  className={`block h-2 w-full rounded-full ${i <= stepIndex ? 'bg-primary' : 'bg-subtle'}`}
                />
              </button>
            </li>
          ))}
        </ol>
      </nav>
      {step.id === 'basics' && fieldsStep(basicsFields)}
      {step.id === 'about' && fieldsStep(aboutFields)}
      {step.id === 'place' && fieldsStep(placeField)}
      {step.id === 'photos' && (
        <>
          <p className="text-sm text-muted">{step.hint}</p>
          {photos}
          <div className="flex flex-wrap items-center gap-3">
            <button type="button" className="btn-primary" onClick={() => goToStep(stepIndex + 1)}>
              {draft.photos.length > 0 ? 'Continue' : 'Continue without photos'}
            </button>
            {back}
          </div>
        </>
      )}
      {step.id === 'preferences' && (
        <>
          <p className="text-sm text-muted">{step.hint}</p>
          <PreferencesEditor
            me={me}
            row={prefRows[0]}
            saveLabel="Save and continue"
            onSaved={async () => {
              if (getCompleteness(synced.draft, answers, true).missing.length === 0)
                await markProfileComplete(db, me).catch(() => undefined);
              goToStep(stepIndex + 1);
            }}
          />
          <div className="flex flex-wrap items-center gap-3">
            {back}
            {skip}
          </div>
        </>
      )}
      {step.id === 'questions' && (
        <>
          <p className="text-sm text-muted">{step.hint}</p>
          <Questionnaire
            me={me}
            collapsible={false}
            saveLabel="Save and finish"
            onSaved={() => void finish()}
          />
          <div className="flex flex-wrap items-center gap-3">
            {back}
            {skip}
          </div>
        </>
      )}
      {meter}
    </main>
  );
}
