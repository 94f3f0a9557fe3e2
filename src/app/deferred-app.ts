// The pre-rendered landing's app code, loaded once the browser has painted the page (decision 0074).

/** The <template> in landing.html that holds the app's entry script and preloads (vite.config.ts fills it). */
export const APP_SCRIPTS_ID = 'app-scripts';

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
