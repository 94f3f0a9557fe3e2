// Lovy's launcher in the member header (never over a page's own buttons), and the welcome bubble a member
// sees once, for 5 seconds, on their first visit (spec §2); a tap or Escape puts it away sooner. The stored flag
// is written when it shows, so a reload or a page change within its 5 seconds does not show it again.
import { Sparkles } from 'lucide-react';
import { useEffect, useState } from 'react';
import { OPEN_LOVY_KEY } from '../../domain/lovy.ts';
import { setLovyOpen, useLovyOpen } from './lovy-open.ts';

const WELCOME_KEY = 'heartsync.lovyWelcomeShown';
const WELCOME_MS = 5000;

function readFlag(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function LovyLauncher() {
  const open = useLovyOpen();
  const [welcome, setWelcome] = useState(false);

  useEffect(() => {
    // Asked for from the landing page's "Try AI Chat" before signing in.
    const asked = Number(readFlag(OPEN_LOVY_KEY));
    if (asked) {
      localStorage.removeItem(OPEN_LOVY_KEY);
      // Only a recent request: a visitor who never signed in that day is not surprised by it later.
      if (Date.now() - asked < 60 * 60 * 1000) {
        setLovyOpen(true);
        return;
      }
    }
    if (readFlag(WELCOME_KEY)) return;
    try {
      localStorage.setItem(WELCOME_KEY, new Date().toISOString());
    } catch {
      /* storage unavailable: the bubble may show again on the next visit */
    }
    setWelcome(true);
  }, []);

  // While the bubble shows: it goes after its 5 seconds, or sooner when the member taps anywhere or presses
  // Escape; its listeners leave with it.
  useEffect(() => {
    if (!welcome) return;
    const done = () => setWelcome(false);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') done();
    };
    const t = setTimeout(done, WELCOME_MS);
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', done);
    return () => {
      clearTimeout(t);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', done);
    };
  }, [welcome]);

  return (
    <div className="relative">
      <button
        type="button"
        className="btn-ghost flex items-center gap-1 px-2"
        aria-expanded={open}
        aria-controls="lovy-panel"
        onClick={() => setLovyOpen(!open)}
      >
        <Sparkles aria-hidden="true" className="size-5 text-primary" />
        {/* Icon only on a phone, where the header also holds the menu, the theme and Sign Out. */}
        <span className="sr-only md:not-sr-only">Lovy</span>
      </button>
      {/* Under the launcher, opening into the page: leftwards on a phone (the launcher sits at the header's right
          end), rightwards beside the sidebar (where it sits at the header's left end). */}
      {welcome && !open && (
        <p
          role="status"
          className="absolute right-0 top-full z-40 md:left-0 md:right-auto mt-2 w-64 rounded-lg border border-border bg-card p-3 text-sm shadow-lg"
        >
          Hi, I&apos;m Lovy, your dating assistant. Ask me anything about profiles, first messages or dates.
        </p>
      )}
    </div>
  );
}
