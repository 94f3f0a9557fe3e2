import { describe, expect, it } from 'vitest';
import { isStoredSessionKey, REPLICA_OWNER_KEY, STORED_SESSION_KEY } from './storage-keys.ts';

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
