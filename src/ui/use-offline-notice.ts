// Whether to tell the member they are offline: at once when the browser has no network, else only once the
// sync connection has been down a few seconds. Every page load connects anew, and that moment is not
// "offline" (Discover and Messages said so for a moment on every visit).
import { useEffect, useState } from 'react';
import { isOnline } from '../data/network.ts';

export const OFFLINE_NOTICE_DELAY_MS = 3_000;

export function useOfflineNotice(connected: boolean): boolean {
  const [notice, setNotice] = useState(false);
  useEffect(() => {
    if (connected) {
      setNotice(false);
      return;
    }
    if (!isOnline()) {
      setNotice(true);
      return;
    }
    const now = () => setNotice(true);
    const t = setTimeout(now, OFFLINE_NOTICE_DELAY_MS);
    window.addEventListener('offline', now);
    return () => {
      clearTimeout(t);
      window.removeEventListener('offline', now);
    };
  }, [connected]);
  return notice;
}
