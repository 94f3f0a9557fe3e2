// The pre-rendered landing's app code, loaded once the browser has painted the page (decision 0074).
import { LANDING_ADOPTED_EVENT } from '../features/landing/prerendered.ts';

/** The <template> in landing.html that holds the app's entry script and preloads (vite.config.ts fills it). */
export const APP_SCRIPTS_ID = 'app-scripts';

/** What a tap can reach on the landing before its code is there: its buttons (its links work without code). */
const CONTROLS = 'button, [role="button"], [role="switch"], [role="menuitem"]';

export interface FrameClock {
  requestAnimationFrame: (callback: () => void) => unknown;
  setTimeout: (callback: () => void, ms: number) => unknown;
}

const browserClock = (): FrameClock => ({
  requestAnimationFrame: (callback) => window.requestAnimationFrame(callback),
  setTimeout: (callback, ms) => window.setTimeout(callback, ms),
});

/** Calls `run` once, after the next paint, or after `latestMs` where no frame comes (a tab in the background). */
export function afterFirstPaint(run: () => void, latestMs = 1000, clock: FrameClock = browserClock()): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  // A frame's callbacks run before its paint; a task queued from one runs after it.
  clock.requestAnimationFrame(() => clock.setTimeout(once, 0));
  clock.setTimeout(once, latestMs);
}

/**
 * Adds the app's entry script and preloads kept in landing.html's template to the head, as new elements (a
 * template's own scripts never run). Returns how many were added; none when the page has no such template.
 */
export function addAppScripts(doc: Document): number {
  const template = doc.getElementById(APP_SCRIPTS_ID);
  if (!(template instanceof HTMLTemplateElement)) return 0;
  const tags = Array.from(template.content.children);
  // The preloads first, so the entry's imports are already on their way when it is parsed.
  const ordered = [
    ...tags.filter((t) => t.tagName === 'LINK'),
    ...tags.filter((t) => t.tagName === 'SCRIPT'),
  ];
  for (const tag of ordered) {
    const src = tag.getAttribute(tag.tagName === 'LINK' ? 'href' : 'src');
    if (!src) continue;
    if (tag.tagName === 'LINK') {
      const link = doc.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = src;
      doc.head.append(link);
    } else {
      const script = doc.createElement('script');
      script.type = 'module';
      script.crossOrigin = '';
      script.src = src;
      doc.head.append(script);
    }
  }
  template.remove();
  return ordered.length;
}

/**
 * Keeps a tap on one of the landing's buttons that comes before the app has adopted the page: the click is held
 * (the pre-rendered button has no handler yet), `onTap` is called (to load the app at once if it is not on its
 * way), and once LANDING_ADOPTED_EVENT fires every held click is given again, in order, to the same button,
 * which React then owns. Until then the page says it is busy (aria-busy).
 */
export function holdEarlyTaps(doc: Document, root: HTMLElement, onTap: () => void): void {
  const held: HTMLElement[] = [];
  const hold = (event: Event) => {
    const target = event.target;
    const control = target instanceof Element ? target.closest(CONTROLS) : null;
    if (!(control instanceof HTMLElement) || !root.contains(control)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push(control);
    root.setAttribute('aria-busy', 'true');
    onTap();
  };
  doc.addEventListener('click', hold, true);
  doc.addEventListener(
    LANDING_ADOPTED_EVENT,
    () => {
      doc.removeEventListener('click', hold, true);
      root.removeAttribute('aria-busy');
      // Adoption keeps the pre-rendered elements (a mismatch would have re-rendered them: nothing to give to).
      for (const control of held.splice(0)) if (control.isConnected) control.click();
    },
    { once: true },
  );
}
