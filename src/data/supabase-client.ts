// The one supabase-js client of the PWA, created from the app configuration; "Remember me" picks where the session lives.
import type { SupabaseClient } from '@supabase/supabase-js';
import { getAppConfig } from './app-config.ts';
import type { Database } from './database.types.ts';

const REMEMBER_KEY = 'heartsync.rememberMe';

function safeStorage(kind: 'local' | 'session'): Storage | undefined {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** Whether the next sessions are kept across browser restarts (default: yes, as the checkbox). */
export function getRememberMe(): boolean {
  return safeStorage('local')?.getItem(REMEMBER_KEY) !== 'false';
}

/** Called before signing in: unchecked keeps the session in this tab's session storage only. */
export function setRememberMe(remember: boolean): void {
  safeStorage('local')?.setItem(REMEMBER_KEY, String(remember));
}

/**
 * supabase-js storage adapter: writes go to local storage when remembering, else to session
 * storage; reads look in both so a session survives a reload either way; removals clear both.
 */
export const rememberMeStorage = {
  getItem(key: string): string | null {
    return safeStorage('session')?.getItem(key) ?? safeStorage('local')?.getItem(key) ?? null;
  },
  setItem(key: string, value: string): void {
    const remember = getRememberMe();
    (remember ? safeStorage('local') : safeStorage('session'))?.setItem(key, value);
    (remember ? safeStorage('session') : safeStorage('local'))?.removeItem(key);
  },
  removeItem(key: string): void {
    safeStorage('local')?.removeItem(key);
    safeStorage('session')?.removeItem(key);
  },
};

/**
 * The key supabase-js keeps the session under for the backend at `backendUrl`: its own default
 * (sb-<first label of the host>-auth-token), named here so the client and a read before it has loaded agree.
 */
export function storedSessionKeyFor(backendUrl: string): string {
  return `sb-${new URL(backendUrl).hostname.split('.')[0] ?? ''}-auth-token`;
}

/** supabase-js typed with the tables, views and functions the migrations define (database.types.ts). */
export type HeartSyncClient = SupabaseClient<Database>;

let client: Promise<HeartSyncClient> | undefined;

/** The shared client; the first call loads the configuration. */
export function getSupabase(): Promise<HeartSyncClient> {
  if (!client) {
    // Loaded on demand so the landing page's first paint does not wait for the client library.
    client = Promise.all([getAppConfig(), import('@supabase/supabase-js'), import('./client-fetch.ts')]).then(
      ([config, supabaseJs, { createHeartSyncClient }]) => createHeartSyncClient(supabaseJs, config),
    );
    client.catch(() => {
      client = undefined;
    });
  }
  return client;
}
