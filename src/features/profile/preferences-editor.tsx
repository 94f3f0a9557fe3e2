// Match preferences: ages, genders, distance and goals; saved to the device and uploaded.
import { useMemo, useState } from 'react';
import { usePendingIds, useReplica } from '../../data/replica.tsx';
import type { ReplicaRow } from '../../data/schema.ts';
import { DISTANCE_BANDS } from '../../domain/distance-band.ts';
import { toast } from '../../ui/toast-store.ts';
import { parseList } from './member-photo.tsx';
import { Checks, Field, PendingNote, Select, useFollowRow } from './profile-fields.tsx';
import { savePreferences } from './profile-data.ts';
import {
  GENDER_OPTIONS,
  GOAL_OPTIONS,
  validatePreferences,
  type Errors,
  type PreferencesDraft,
} from './profile-rules.ts';

export function PreferencesEditor({
  me,
  row,
  onSaved,
  saveLabel = 'Save preferences',
}: {
  me: string;
  row?: ReplicaRow<'match_preferences'>;
  onSaved: () => Promise<void>;
  saveLabel?: string;
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
  const base = useFollowRow(synced, setP);
  const [errors, setErrors] = useState<Errors>({});
  async function save() {
    const e = validatePreferences(p);
    setErrors(e);
    if (Object.keys(e).length) return;
    const before = { current: base.current, taken: base.taken };
    try {
      base.current = p;
      base.taken = p;
      // Not written: a second try writes the same changes.
      await savePreferences(db, me, p, before.taken).catch((err: unknown) => {
        Object.assign(base, before);
        throw err;
      });
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
            onChange={(e) => {
              const minAge = Number(e.target.value);
              setP((f) => ({ ...f, min_age: minAge }));
            }}
          />
        </Field>
        <Field label="Maximum age" error={errors['max_age']}>
          <input
            className="input mt-1 w-full"
            type="number"
            min={18}
            max={120}
            value={p.max_age}
            onChange={(e) => {
              const maxAge = Number(e.target.value);
              setP((f) => ({ ...f, max_age: maxAge }));
            }}
          />
        </Field>
      </div>
      <Checks
        legend="Show me (none means everyone)"
        options={GENDER_OPTIONS}
        value={p.genders}
        onChange={(genders) => setP((f) => ({ ...f, genders }))}
        error={errors['genders']}
      />
      <Field label="Maximum distance" error={errors['max_distance_band']}>
        <Select
          value={p.max_distance_band}
          onChange={(v) => setP((f) => ({ ...f, max_distance_band: v }))}
          options={DISTANCE_BANDS}
        />
      </Field>
      <Checks
        legend="Relationship goals (none means any)"
        options={GOAL_OPTIONS}
        value={p.relationship_goals}
        onChange={(relationship_goals) => setP((f) => ({ ...f, relationship_goals }))}
        error={errors['relationship_goals']}
      />
      {errors['form'] && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {errors['form']}
        </p>
      )}
      <button type="button" className="btn-primary" onClick={() => void save()}>
        {saveLabel}
      </button>
      <PendingNote pending={pending} />
    </section>
  );
}
