// The entry script of the pre-rendered landing (landing.html, served for /; decision 0074). Before the first
// paint it does only what that paint must get right: the stored theme, no cookie banner for a visitor who
// already chose, and no landing at all for a member or an auth redirect. The app itself (main.tsx, which adopts
// the page) is loaded after that paint, so on a slow network its code does not compete with the page's own
// style sheet for the first paint; for anyone who does not keep the page it loads at once. A tap on one of the
// page's buttons before the app has adopted it is held and given to the app afterwards (holdEarlyTaps).
import { addAppScripts, afterFirstPaint, holdEarlyTaps } from './app/deferred-app.ts';
import { readCookieConsent } from './app/cookie-choice.ts';
import { canAdoptPrerenderedLanding, PRERENDERED_ATTRIBUTE } from './features/landing/prerendered.ts';
import { applyTheme, readThemeChoice } from './ui/themes.ts';

const loadApp = () => void addAppScripts(document);
const choice = readThemeChoice();
applyTheme(choice.theme, choice.dark);
const root = document.getElementById('root');
if (root && canAdoptPrerenderedLanding(root, window.location)) {
  if (readCookieConsent() !== undefined) root.querySelector('[data-cookie-banner]')?.remove();
  // A tap on a button before the app is there is kept and given to it once it has adopted the page.
  holdEarlyTaps(document, root, loadApp);
  afterFirstPaint(loadApp);
} else {
  // A member (or an auth redirect) never sees the landing: the page stays empty until the app renders.
  root?.removeAttribute(PRERENDERED_ATTRIBUTE);
  root?.replaceChildren();
  loadApp();
}
