import { describe, expect, it } from 'vitest';
import {
  isStoredSessionKey,
  REPLICA_OWNER_KEY,
  STORED_SESSION_KEY,
  storedSessionKeyFor,
} from './storage-keys.ts';

describe('isStoredSessionKey', () => {
  it('knows the keys supabase-js stores a session under, whatever the backend address', () => {
    expect(isStoredSessionKey('sb-127-auth-token')).toBe(true);
    expect(isStoredSessionKey('sb-heartsync-auth-token')).toBe(true);
    expect(isStoredSessionKey('sb-my-project-auth-token')).toBe(true);
  });

  it('leaves the app’s own keys and the auth client’s other keys alone', () => {
    expect(isStoredSessionKey('heartsync.replicaOwner')).toBe(false);
    expect(isStoredSessionKey('sb-127-auth-token-code-verifier')).toBe(false);
    expect(isStoredSessionKey('sb--auth-token')).toBe(false);
    expect(isStoredSessionKey('xsb-127-auth-token')).toBe(false);
  });

  it('gives a page script the same rule through its source', () => {
    const inPage = new RegExp(STORED_SESSION_KEY.source);
    expect(inPage.test('sb-127-auth-token')).toBe(true);
    expect(inPage.test('sb-127-auth-token-code-verifier')).toBe(false);
  });

  it('keeps the replica owner key devices already store (a new name would wipe every returning member)', () => {
    expect(REPLICA_OWNER_KEY).toBe('heartsync.replicaOwner');
  });
});

describe('storedSessionKeyFor', () => {
  it('names the key supabase-js itself picks for the backend (a different key would sign every member out)', async () => {
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
