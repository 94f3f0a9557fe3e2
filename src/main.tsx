// Entry point: applies the stored theme before the first paint, then renders the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { applyTheme, readThemeChoice } from './ui/themes.ts';
import './styles.css';

const choice = readThemeChoice();
applyTheme(choice.theme, choice.dark);

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
