import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryStorage } from './memory-storage.test-support.ts';
import { isStoredSessionKey } from './storage-keys.ts';
import { storedSessionKeyFor } from './supabase-client.ts';
import { isStoredSession, readStoredSession } from './stored-session.ts';

const ORIGIN = 'http://192.168.1.20:3000';
const session = {
  access_token: 'header.payload.signature',
  refresh_token: 'refresh',
  expires_at: 1_700_000_000,
  expires_in: 3600,
  token_type: 'bearer',
  user: { id: '5b0c3a52-6c1e-4d0f-9a51-0f2f0c2b9a11', email: 'ann@example.com' },
};

describe('readStoredSession', () => {
  let local: MemoryStorage;
  let tab: MemoryStorage;
  beforeEach(() => {
    local = new MemoryStorage();
    tab = new MemoryStorage();
    (globalThis as unknown as { window: unknown }).window = {
      localStorage: local,
      sessionStorage: tab,
      location: { origin: ORIGIN },
    };
  });
  afterEach(() => {
    delete (globalThis as unknown as { window?: unknown }).window;
  });

  it('reads the session supabase-js keeps for the backend at the page’s address, even an expired one', () => {
    local.setItem(storedSessionKeyFor(ORIGIN), JSON.stringify(session));
    expect(readStoredSession()).toEqual(session);
  });

  it('reads a session kept for this tab only ("Remember me" unchecked)', () => {
    tab.setItem(storedSessionKeyFor(ORIGIN), JSON.stringify(session));
    expect(readStoredSession()?.user.id).toBe(session.user.id);
  });

  it('finds nothing when nothing is stored, or only another backend’s session', () => {
    expect(readStoredSession()).toBeNull();
    local.setItem(storedSessionKeyFor('http://10.0.0.5:3000'), JSON.stringify(session));
    expect(readStoredSession()).toBeNull();
  });

  it('takes nothing the auth client would not take for a session', () => {
    const key = storedSessionKeyFor(ORIGIN);
    for (const stored of [
      'not json',
      'null',
      JSON.stringify({ ...session, refresh_token: undefined }),
      JSON.stringify({ ...session, access_token: 42 }),
      JSON.stringify({ ...session, expires_at: '1700000000' }),
      JSON.stringify({ ...session, user: null }),
      JSON.stringify({ ...session, user: { email: 'ann@example.com' } }),
    ]) {
      local.setItem(key, stored);
      expect(readStoredSession(), stored).toBeNull();
    }
  });

  it('finds nothing where storage cannot be read', () => {
    (globalThis as unknown as { window: unknown }).window = {
      get localStorage(): Storage {
        throw new DOMException('denied', 'SecurityError');
      },
      get sessionStorage(): Storage {
        throw new DOMException('denied', 'SecurityError');
      },
      location: { origin: ORIGIN },
    };
    expect(readStoredSession()).toBeNull();
  });
});

describe('isStoredSession', () => {
  it('asks for the tokens, their expiry and the member', () => {
    expect(isStoredSession(session)).toBe(true);
    expect(isStoredSession({ ...session, expires_at: undefined })).toBe(false);
    expect(isStoredSession(undefined)).toBe(false);
  });
});

describe('storedSessionKeyFor', () => {
  it('names the key supabase-js itself picks for the backend, where the session is read before the client loads', async () => {
    const { createClient } = await import('@supabase/supabase-js');
    const { default: WebSocket } = await import('ws');
    for (const url of [
      'http://localhost:3000',
      'http://127.0.0.1:3000',
      'http://192.168.1.20:8080',
      'https://abcdefgh.supabase.co',
    ]) {
      const client = createClient(url, 'anon-key', {
        auth: { persistSession: false, autoRefreshToken: false },
        realtime: { transport: WebSocket as never },
      });
      const chosen = (client.auth as unknown as { storageKey: string }).storageKey;
      expect(storedSessionKeyFor(url)).toBe(chosen);
      expect(isStoredSessionKey(chosen)).toBe(true);
    }
  });
});
