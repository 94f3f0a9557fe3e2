// The profile screens' shared controls: labelled fields, check groups, selects with human labels, and the pending note.
import { useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { useStatus } from '../../data/replica.tsx';
import { getLabel } from '../../domain/labels.ts';

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

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

/** Whether the browser has a network; photos need it, the rest of the profile does not. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => navigator.onLine);
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

/**
 * Keeps a form in step with its row on the device (the first sync, the server's version, a refused write
 * rolled back) as long as the member has not edited it since; returns the last state the form took from
 * the row or saved, for the caller to move on save.
 */
export function useFollowRow<T>(synced: T, value: T, setValue: (v: T) => void): { current: T } {
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
