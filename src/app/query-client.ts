// React-query defaults of spec §9: fresh 5 min, kept 10 min, no refetch on focus, always on reconnect, bounded retries.
import { onlineManager, QueryClient } from '@tanstack/react-query';
import { isOnline, onNetworkChange } from '../data/network.ts';

export const QUERY_STALE_MS = 5 * 60 * 1000;
export const QUERY_GC_MS = 10 * 60 * 1000;

/** Exponential backoff from 1 s, capped. */
export const getRetryDelay = (capMs: number) => (attempt: number) => Math.min(1000 * 2 ** attempt, capMs);

export function createQueryClient(): QueryClient {
  // React-query assumes a network until the browser's first `offline` event: a page opened offline would send
  // its queries into the void. Offline means no request (issue 21): they wait for the network instead, and
  // for it to have stayed back (network.ts).
  onlineManager.setOnline(isOnline());
  onlineManager.setEventListener((setOnline) => onNetworkChange(setOnline));
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: QUERY_STALE_MS,
        gcTime: QUERY_GC_MS,
        refetchOnWindowFocus: false,
        refetchOnReconnect: 'always',
        retry: 3,
        retryDelay: getRetryDelay(30_000),
      },
      mutations: { retry: 2, retryDelay: getRetryDelay(10_000) },
    },
  });
}
