// A "More actions" menu (the vertical ellipsis): the actions a phone keeps out of a crowded row or header. It
// closes as every menu here does (Escape, a press outside, another page) and after an action is chosen.
import { useRef, useState } from 'react';
import { EllipsisVertical, type LucideIcon } from 'lucide-react';
import { useDismiss } from './use-dismiss.ts';

export interface MoreMenuItem {
  icon: LucideIcon;
  label: string;
  onSelect: () => void;
}

export function MoreMenu({
  label,
  items,
  className = '',
}: {
  /** The menu's accessible name, e.g. "More actions for Leo". */
  label: string;
  items: MoreMenuItem[];
  /** Where it shows, e.g. `md:hidden` when a wider screen shows the actions as words. */
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  useDismiss(open, () => setOpen(false), root);
  return (
    <div ref={root} className={`relative ${className}`}>
      <button
        type="button"
        className="btn-ghost px-2"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <EllipsisVertical aria-hidden="true" className="size-5" />
        <span className="sr-only">More actions</span>
      </button>
      {open && (
        <ul
          role="menu"
          aria-label={label}
          className="absolute right-0 z-40 mt-1 w-44 rounded-lg border border-border bg-card p-1 text-fg shadow-lg"
        >
          {items.map(({ icon: Icon, label: itemLabel, onSelect }) => (
            <li key={itemLabel} role="none">
              <button
                type="button"
                role="menuitem"
                className="flex w-full items-center gap-2 rounded px-3 py-2 text-left hover:bg-subtle"
                onClick={() => {
                  setOpen(false);
                  onSelect();
                }}
              >
                <Icon aria-hidden="true" className="size-4" />
                {itemLabel}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
