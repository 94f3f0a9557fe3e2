// The seven colour themes of spec §3; their light and dark colour sets live in styles.css under [data-theme].

export const THEMES = [
  { name: 'light', label: 'Light', description: 'Clean and bright' },
  { name: 'dark', label: 'Dark', description: 'Easy on the eyes' },
  { name: 'sunset', label: 'Sunset', description: 'Warm and romantic' },
  { name: 'ocean', label: 'Ocean', description: 'Cool and calm' },
  { name: 'forest', label: 'Forest', description: 'Natural and grounded' },
  { name: 'lavender', label: 'Lavender', description: 'Soft and gentle' },
  { name: 'midnight', label: 'Midnight', description: 'Deep and mysterious' },
] as const;

export type ThemeName = (typeof THEMES)[number]['name'];

export const THEME_KEY = 'heartsync.theme';
export const DARK_MODE_KEY = 'heartsync.darkMode';

export function isThemeName(v: unknown): v is ThemeName {
  return THEMES.some((t) => t.name === v);
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* storage unavailable: the choice lasts for this page only */
  }
}

function prefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** Stored choices, or the system preference when none was made. */
export function readThemeChoice(): { theme: ThemeName; dark: boolean } {
  const stored = read(THEME_KEY);
  const dark = read(DARK_MODE_KEY);
  return {
    theme: isThemeName(stored) ? stored : prefersDark() ? 'dark' : 'light',
    dark: dark === null ? prefersDark() : dark === 'true',
  };
}

/** Selects the colour set through data attributes (no inline styles: the CSP forbids them). */
export function applyTheme(theme: ThemeName, dark: boolean): void {
  const root = document.documentElement;
  root.dataset['theme'] = theme;
  root.dataset['mode'] = dark || theme === 'dark' || theme === 'midnight' ? 'dark' : 'light';
  root.classList.toggle('dark', root.dataset['mode'] === 'dark');
}
