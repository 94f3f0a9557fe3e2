import { jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { parseIceServers, signStreamToken, STREAM_TOKEN_TTL_SECONDS } from './calls.ts';

describe('parseIceServers', () => {
  it('is empty when unset', () => {
    expect(parseIceServers(undefined)).toEqual([]);
    expect(parseIceServers(' ')).toEqual([]);
  });

  it('keeps STUN and TURN servers with their credentials', () => {
    const raw = JSON.stringify([
      { urls: 'stun:stun.example.org:3478' },
      {
        urls: ['turn:turn.example.org:3478?transport=udp', 'turns:turn.example.org:5349'],
        username: 'u',
        credential: 'p',
      },
    ]);
    expect(parseIceServers(raw)).toEqual([
      { urls: 'stun:stun.example.org:3478' },
      {
        urls: ['turn:turn.example.org:3478?transport=udp', 'turns:turn.example.org:5349'],
        username: 'u',
        credential: 'p',
      },
    ]);
  });

  it('drops entries that are not ICE servers', () => {
    const raw = JSON.stringify([
      { urls: 'https://evil.example' },
      'stun:x',
      null,
      { urls: ['javascript:1', 'stun:a:1'] },
    ]);
    expect(parseIceServers(raw)).toEqual([{ urls: 'stun:a:1' }]);
  });

  it('refuses a setting that is not a JSON list', () => {
    expect(() => parseIceServers('stun:x')).toThrow(/not JSON/);
    expect(() => parseIceServers('{"urls":"stun:x"}')).toThrow(/JSON list/);
  });
});

describe('signStreamToken', () => {
  it('is an HS256 token naming the user that verifies with the secret and expires in an hour', async () => {
    const now = Date.UTC(2026, 10, 26, 12);
    const token = await signStreamToken('user-1', 'fixed-secret', now);
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode('fixed-secret'), {
      currentDate: new Date(now),
    });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.user_id).toBe('user-1');
    expect(payload.exp! - payload.iat!).toBe(STREAM_TOKEN_TTL_SECONDS);
    await expect(jwtVerify(token, new TextEncoder().encode('other'))).rejects.toThrow();
  });
});
