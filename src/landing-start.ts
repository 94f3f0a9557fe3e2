// The entry script of the pre-rendered landing (landing.html, served for /; decision 0074). Before the first
// paint it does only what that paint must get right: the stored theme, no cookie banner for a visitor who
// already chose, and no landing at all for a member or an auth redirect. The app itself (main.tsx, which adopts
// the page) is loaded after that paint, so on a slow network its code does not compete with the page's own
// style sheet for the first paint; for anyone who does not keep the page it loads at once.
import { addAppScripts, afterFirstPaint } from './app/deferred-app.ts';
import { readCookieConsent } from './app/cookie-choice.ts';
import { canAdoptPrerenderedLanding, PRERENDERED_ATTRIBUTE } from './features/landing/prerendered.ts';
import { applyTheme, readThemeChoice } from './ui/themes.ts';

const loadApp = () => void addAppScripts(document);
const choice = readThemeChoice();
applyTheme(choice.theme, choice.dark);
const root = document.getElementById('root');
if (root && canAdoptPrerenderedLanding(root, window.location)) {
  if (readCookieConsent() !== undefined) root.querySelector('[data-cookie-banner]')?.remove();
  afterFirstPaint(loadApp);
} else {
  // A member (or an auth redirect) never sees the landing: the page stays empty until the app renders.
  root?.removeAttribute(PRERENDERED_ATTRIBUTE);
  root?.replaceChildren();
  loadApp();
}
