// Entry point: applies the stored theme before the first paint, then renders the app, adopting the
// pre-rendered landing when the page has one a visitor can keep (decision 0023).
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App, preloadMemberRoute } from './app/app.tsx';
import { startMemberAreaEarly } from './app/early-start.ts';
import { startTellingServiceWorker } from './data/network.ts';
import { canAdoptPrerenderedLanding, PRERENDERED_ATTRIBUTE } from './features/landing/prerendered.ts';
import { applyTheme, readThemeChoice } from './ui/themes.ts';
import './styles.css';

const choice = readThemeChoice();
applyTheme(choice.theme, choice.dark);
// The service worker fetches nothing while the device is offline (issue 21).
startTellingServiceWorker();

const root = document.getElementById('root');
if (!root) throw new Error('missing #root');

if (canAdoptPrerenderedLanding(root, window.location)) {
  // The landing's own entry (landing-start.ts) already dropped the pre-rendered cookie banner for a visitor
  // who chose; React renders none for them either.
  // As a transition, adopting the page is done in short slices the browser can interrupt: the page is
  // already on screen, so nothing waits for it, and no long task blocks input meanwhile.
  startTransition(() => {
    hydrateRoot(
      root,
      <StrictMode>
        <App prerendered />
      </StrictMode>,
    );
  });
} else {
  // A returning member's replica and page code start loading now, alongside the auth client.
  startMemberAreaEarly(preloadMemberRoute);
  // Anything else (a member, another route, an auth redirect) starts from an empty root.
  root.removeAttribute(PRERENDERED_ATTRIBUTE);
  root.replaceChildren();
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
