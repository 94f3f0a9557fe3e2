/// <reference types="vite-plugin-pwa/react" />
// Registers the service worker (after the page has loaded) and offers a reload when a new version is waiting.
import { X } from 'lucide-react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { isOnline } from '../data/network.ts';

/** Checks for a new version every hour while the app stays open (installed PWAs can run for days). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      setInterval(() => {
        if (isOnline()) void registration.update().catch(() => undefined);
      }, UPDATE_CHECK_MS);
    },
    onRegisterError(error: unknown) {
      console.warn('[pwa] service worker registration failed', error);
    },
  });
  if (!needRefresh) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      className="fixed bottom-4 left-4 z-[110] flex max-w-sm items-center gap-3 rounded-lg border border-border bg-card p-4 text-fg shadow-lg"
    >
      <p className="flex-1 text-sm font-medium">A new version is available</p>
      <button
        type="button"
        className="btn-primary px-3 py-1.5 text-sm"
        onClick={() => void updateServiceWorker(true)}
      >
        Reload
      </button>
      <button
        type="button"
        aria-label="Later"
        className="rounded px-1 text-lg leading-none opacity-80 hover:opacity-100"
        onClick={() => setNeedRefresh(false)}
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
