// The session supabase-js keeps on the device (local storage, or session storage without "Remember me"), as a
// journey reads it, takes its access token, or ages it past its expiry.
import type { Page } from '@playwright/test';
import { STORED_SESSION_KEY } from '../../../src/data/storage-keys.ts';

export interface StoredSession {
  access_token: string;
  expires_at: number;
}

/** The stored session, or null; with `expire`, it is first stored again as expired a minute ago. */
async function evaluateStoredSession(page: Page, expire: boolean): Promise<StoredSession | null> {
  return page.evaluate(
    ([pattern, age]) => {
      for (const store of [localStorage, sessionStorage])
        for (let i = 0; i < store.length; i++) {
          const key = store.key(i);
          if (!key || !new RegExp(pattern).test(key)) continue;
          const session = JSON.parse(store.getItem(key) ?? 'null') as StoredSession | null;
          if (session && age) {
            session.expires_at = Math.floor(Date.now() / 1000) - 60;
            store.setItem(key, JSON.stringify(session));
          }
          return session;
        }
      return null;
    },
    [STORED_SESSION_KEY.source, expire] as const,
  );
}

export function readStoredSession(page: Page): Promise<StoredSession | null> {
  return evaluateStoredSession(page, false);
}

/** The stored session's access token; throws when none is stored. */
export async function getAccessToken(page: Page): Promise<string> {
  const session = await readStoredSession(page);
  if (!session) throw new Error('no stored session');
  return session.access_token;
}

/** Ages the stored session: its access token expired a minute ago, as after an hour away. Returns that token. */
export async function expireStoredSession(page: Page): Promise<string> {
  const session = await evaluateStoredSession(page, true);
  if (!session) throw new Error('no stored session');
  return session.access_token;
}
