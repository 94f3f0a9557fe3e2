// Theme state for the app: the chosen theme and dark mode, kept in local storage and applied to <html>.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { DARK_MODE_KEY, THEME_KEY, applyTheme, readThemeChoice, write, type ThemeName } from './themes.ts';

interface ThemeState {
  theme: ThemeName;
  dark: boolean;
  setTheme: (t: ThemeName) => void;
  toggleDark: () => void;
}

const ThemeContext = createContext<ThemeState | undefined>(undefined);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [choice, setChoice] = useState(readThemeChoice);
  const setTheme = useCallback((theme: ThemeName) => {
    write(THEME_KEY, theme);
    setChoice((c) => {
      applyTheme(theme, c.dark);
      return { ...c, theme };
    });
  }, []);
  const toggleDark = useCallback(() => {
    setChoice((c) => {
      const dark = !c.dark;
      write(DARK_MODE_KEY, String(dark));
      applyTheme(c.theme, dark);
      return { ...c, dark };
    });
  }, []);
  const value = useMemo(() => ({ ...choice, setTheme, toggleDark }), [choice, setTheme, toggleDark]);
  return <ThemeContext value={value}>{children}</ThemeContext>;
}

export function useTheme(): ThemeState {
  const ctx = useContext(ThemeContext);
  if (!ctx) throw new Error('useTheme outside ThemeProvider');
  return ctx;
}
