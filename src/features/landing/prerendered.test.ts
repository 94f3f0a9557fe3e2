// When the pre-rendered landing may be adopted as it is: only for a visitor at / with nothing to finish.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { canAdoptPrerenderedLanding, hasStoredSession, PRERENDERED_ATTRIBUTE } from './prerendered.ts';

function fakeStorage(entries: Record<string, string> = {}): Storage {
  const keys = Object.keys(entries);
  return {
    length: keys.length,
    key: (i: number) => keys[i] ?? null,
    getItem: (k: string) => entries[k] ?? null,
    setItem: () => {},
    removeItem: () => {},
    clear: () => {},
  };
}

function withStorage(local: Record<string, string> = {}, session: Record<string, string> = {}): void {
  vi.stubGlobal('window', { localStorage: fakeStorage(local), sessionStorage: fakeStorage(session) });
}

const prerenderedRoot = {
  getAttribute: (name: string) => (name === PRERENDERED_ATTRIBUTE ? 'landing' : null),
};
const plainRoot = { getAttribute: () => null };

function at(url: string): Location {
  const u = new URL(url, 'https://heartsync.test');
  return { pathname: u.pathname, search: u.search, hash: u.hash } as Location;
}

const adopt = (root: { getAttribute(name: string): string | null }, url: string) =>
  canAdoptPrerenderedLanding(root as unknown as HTMLElement, at(url));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('canAdoptPrerenderedLanding', () => {
  it('adopts the page for a visitor at / (other storage entries and plain query values do not matter)', () => {
    withStorage({ cookieConsent: '{}', 'heartsync.theme': 'ocean' });
    expect(adopt(prerenderedRoot, '/')).toBe(true);
    expect(adopt(prerenderedRoot, '/?ref=newsletter#features')).toBe(true);
  });

  it('starts afresh when the page holds no pre-rendered landing or the path is not /', () => {
    withStorage();
    expect(adopt(plainRoot, '/')).toBe(false);
    expect(adopt(prerenderedRoot, '/login')).toBe(false);
  });

  it('starts afresh when a session is stored, remembered or for this tab only', () => {
    withStorage({ 'sb-127-auth-token': '{}' });
    expect(hasStoredSession()).toBe(true);
    expect(adopt(prerenderedRoot, '/')).toBe(false);
    withStorage({}, { 'sb-heartsync-auth-token': '{}' });
    expect(adopt(prerenderedRoot, '/')).toBe(false);
  });

  it('starts afresh when an auth redirect brings tokens or an error back', () => {
    withStorage();
    for (const url of [
      '/#access_token=a&refresh_token=b&type=signup',
      '/#error=access_denied&error_description=expired',
      '/?code=abc',
      '/?token_hash=x&type=recovery',
    ])
      expect(adopt(prerenderedRoot, url), url).toBe(false);
  });

  it('treats unreadable storage as holding no session', () => {
    vi.stubGlobal('window', {
      get localStorage(): Storage {
        throw new Error('denied');
      },
      get sessionStorage(): Storage {
        throw new Error('denied');
      },
    });
    expect(hasStoredSession()).toBe(false);
  });
});
