// The profile screens' shared controls: labelled fields, check groups, selects with human labels, and the pending note.
import { useEffect, useRef, type Dispatch, type ReactNode, type SetStateAction } from 'react';
import { useOnline } from '../../data/network.ts';
import { useStatus } from '../../data/replica.tsx';
import { getLabel } from '../../domain/labels.ts';
import { followRow } from './follow-row.ts';

export function Field({
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

export function Checks({
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

export function Select({
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

/** Whether queued writes can upload now: a network, and the sync stream up (it notices a lost network late). */
export function useUploadPossible(): boolean {
  const online = useOnline();
  const { connected } = useStatus();
  return online && connected;
}

/** Says that a write is still in the upload queue, and why, in a polite live region. */
export function PendingNote({ pending }: { pending: boolean }) {
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

/** What useFollowRow tracks of a form and its row. */
export interface FollowedRow<T> {
  /** The row's latest version on the device (or what was just saved): a form equal to it has nothing unsaved. */
  current: T;
  /**
   * The version the form last took (from the row, or saved): the member's edits are the differences from it.
   * A save writes only those, so a row that changed meanwhile (another device, the server) keeps its changes.
   */
  taken: T;
}

/**
 * Keeps a form in step with its row on the device (the first sync, the server's version, a refused write
 * rolled back) as long as the member has not edited it since. The caller moves both marks on save.
 * Edits must go through updaters (`setValue((form) => ...)`): React may apply a row change queued before a
 * keystroke after it, and an edit built on the form its handler saw would then drop the row's new version
 * while `taken` already names it.
 */
export function useFollowRow<T>(synced: T, setValue: Dispatch<SetStateAction<T>>): FollowedRow<T> {
  const base = useRef<FollowedRow<T>>({ current: synced, taken: synced }).current;
  const syncedKey = JSON.stringify(synced);
  useEffect(() => {
    const previous = JSON.stringify(base.current);
    base.current = synced;
    // Decided on the form as it is when React applies this, not as this render saw it: an edit typed between
    // this render and its effect (React runs a pending effect just before the keystroke's own render) is
    // already queued, and comparing the render's older form would replace the member's text with the row.
    setValue((form) => {
      const next = followRow(form, previous, synced);
      if (next.taken) base.taken = synced;
      return next.form;
    });
    // Only a change of the row matters here, not each keystroke.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [syncedKey]);
  return base;
}
