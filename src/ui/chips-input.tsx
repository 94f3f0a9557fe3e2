// A list of short words as chips (issue 20: interests and languages): type and press Enter or a comma to add
// (several at once when pasted with commas), Backspace in the empty field removes the last, each chip has its
// own remove button, and suggestions add with one tap. Duplicates (in any case) are ignored; a word still in
// the field when it loses focus is added, so nothing typed is lost.
import { useState, type KeyboardEvent } from 'react';
import { Plus, X } from 'lucide-react';

function addAll(list: readonly string[], text: string, max: number): string[] {
  const next = [...list];
  for (const raw of text.split(',')) {
    const word = raw.trim().replace(/\s+/g, ' ');
    if (!word || next.length >= max) continue;
    if (next.some((w) => w.toLowerCase() === word.toLowerCase())) continue;
    next.push(word);
  }
  return next;
}

export function ChipsInput({
  label,
  value,
  onChange,
  suggestions = [],
  max = 20,
  maxLength = 50,
  error,
}: {
  label: string;
  value: readonly string[];
  onChange: (next: string[]) => void;
  suggestions?: readonly string[];
  max?: number;
  maxLength?: number;
  error?: string;
}) {
  const [entry, setEntry] = useState('');
  const id = `chips-${label.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  const offered = suggestions
    .filter((s) => !value.some((v) => v.toLowerCase() === s.toLowerCase()))
    .slice(0, 8);

  function commit(text = entry) {
    if (!text.trim()) return;
    onChange(addAll(value, text, max));
    setEntry('');
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      commit();
    } else if (e.key === 'Backspace' && entry === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  }

  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{label}</legend>
      {value.length > 0 && (
        <ul aria-label={label} className="flex flex-wrap gap-1.5">
          {value.map((w) => (
            <li key={w} className="flex items-center gap-1 rounded-full bg-subtle py-0.5 pr-1 pl-3 text-sm">
              {w}
              <button
                type="button"
                className="rounded-full p-0.5 hover:bg-border"
                aria-label={`Remove ${w}`}
                onClick={() => onChange(value.filter((x) => x !== w))}
              >
                <X aria-hidden="true" className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={id}
        className="input w-full"
        aria-label={`Add ${label.toLowerCase()}`}
        placeholder={value.length >= max ? `Up to ${max}` : 'Type and press Enter'}
        disabled={value.length >= max}
        maxLength={maxLength * 4}
        value={entry}
        onChange={(e) => {
          // A pasted or typed comma adds what came before it.
          const text = e.target.value;
          if (text.includes(',')) {
            const last = text.lastIndexOf(',');
            commit(text.slice(0, last));
            setEntry(text.slice(last + 1).trimStart());
          } else setEntry(text);
        }}
        onKeyDown={onKeyDown}
        onBlur={() => commit()}
      />
      {offered.length > 0 && value.length < max && (
        <div className="flex flex-wrap gap-1.5" aria-label={`Suggested ${label.toLowerCase()}`} role="group">
          {offered.map((s) => (
            <button
              key={s}
              type="button"
              className="flex items-center gap-1 rounded-full border border-border px-2.5 py-0.5 text-sm hover:bg-subtle"
              onClick={() => onChange(addAll(value, s, max))}
            >
              <Plus aria-hidden="true" className="size-3.5" />
              {s}
            </button>
          ))}
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}
