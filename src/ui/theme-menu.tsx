// Theme menu: pick one of the seven colour themes and toggle dark mode.
import { useId, useRef, useState } from 'react';
import {
  Check,
  Leaf,
  Moon,
  Palette,
  Sparkles,
  Sun,
  Sunset,
  Waves,
  Flower2,
  type LucideIcon,
} from 'lucide-react';
import { THEMES, type ThemeName } from './themes.ts';
import { useTheme } from './theme-context.tsx';
import { useDismiss } from './use-dismiss.ts';

const THEME_ICONS: Record<ThemeName, LucideIcon> = {
  light: Sun,
  dark: Moon,
  sunset: Sunset,
  ocean: Waves,
  forest: Leaf,
  lavender: Flower2,
  midnight: Sparkles,
};

/**
 * The theme menu button. `placement` keeps its panel inside the screen: below and right-aligned in a header,
 * above and left-aligned at the bottom of the sidebar.
 */
export function ThemeMenu({
  placement = 'below',
  compact = false,
}: {
  placement?: 'below' | 'above';
  /** Icon only (the collapsed sidebar rail); the name stays for assistive technology. */
  compact?: boolean;
} = {}) {
  const { theme, dark, setTheme, toggleDark } = useTheme();
  const alwaysDark = theme === 'dark' || theme === 'midnight';
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);

  useDismiss(open, () => setOpen(false), root);

  return (
    <div ref={root} className="relative">
      <button
        type="button"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={menuId}
        className="btn-ghost"
        onClick={() => setOpen((o) => !o)}
      >
        <Palette aria-hidden="true" className={`inline size-4 ${compact ? '' : 'mr-1'}`} />
        <span className={compact ? 'sr-only' : ''}>Theme</span>
      </button>
      {open && (
        <div
          id={menuId}
          className={`absolute z-50 max-h-[80vh] w-64 overflow-y-auto rounded-lg border border-border bg-card p-2 text-fg shadow-lg ${
            placement === 'above' ? 'bottom-full left-0 mb-2' : 'right-0 mt-2'
          }`}
        >
          <p className="px-2 pb-1 text-xs font-semibold text-muted uppercase">Colour theme</p>
          <ul>
            {THEMES.map((t) => {
              const Icon = THEME_ICONS[t.name];
              return (
                <li key={t.name}>
                  <button
                    type="button"
                    aria-pressed={theme === t.name}
                    className="flex w-full items-center gap-2 rounded px-2 py-1.5 text-left hover:bg-subtle aria-pressed:font-semibold"
                    onClick={() => setTheme(t.name)}
                  >
                    <Icon aria-hidden="true" className="size-4 shrink-0" />
                    <span className="flex-1">
                      {t.label}
                      <span className="block text-xs text-muted">{t.description}</span>
                    </span>
                    {theme === t.name && <Check aria-hidden="true" className="size-4" />}
                  </button>
                </li>
              );
            })}
          </ul>
          {/* One switch for every theme's dark colours; Dark and Midnight are dark themes whatever it says. */}
          <label className="mt-2 flex items-center justify-between border-t border-border px-2 pt-2 text-sm">
            Dark mode
            <input
              type="checkbox"
              role="switch"
              checked={dark || alwaysDark}
              disabled={alwaysDark}
              aria-describedby={alwaysDark ? 'theme-always-dark' : undefined}
              onChange={toggleDark}
            />
          </label>
          {alwaysDark && (
            <p id="theme-always-dark" className="px-2 pt-1 text-xs text-muted">
              {THEMES.find((t) => t.name === theme)?.label} is always dark.
            </p>
          )}
        </div>
      )}
    </div>
  );
}
