import { beforeEach, describe, expect, it } from 'vitest';
import { clearAllUnsentTexts, clearUnsentText, findUnsentText, keepUnsentText } from './unsent-text.ts';
import { MemoryStorage } from './memory-storage.test-support.ts';

describe('unsent text written through', () => {
  let storage: MemoryStorage;
  beforeEach(() => {
    storage = new MemoryStorage();
    (globalThis as unknown as { window: unknown }).window = { localStorage: storage };
  });

  it('keeps the text at once with its time, and an empty text clears it', () => {
    keepUnsentText('draft:c1', 'hel');
    keepUnsentText('draft:c1', 'hello');
    const kept = findUnsentText('draft:c1');
    expect(kept?.text).toBe('hello');
    expect(kept?.at).toBeGreaterThan(0);
    keepUnsentText('draft:c1', '');
    expect(findUnsentText('draft:c1')).toBeUndefined();
  });

  it('clears one text when sent, and every one at sign-out, leaving other keys alone', () => {
    keepUnsentText('draft:c1', 'one');
    keepUnsentText('draft:c2', 'two');
    storage.setItem('cookieConsent', '{}');
    clearUnsentText('draft:c1');
    expect(findUnsentText('draft:c1')).toBeUndefined();
    expect(findUnsentText('draft:c2')?.text).toBe('two');
    clearAllUnsentTexts();
    expect(findUnsentText('draft:c2')).toBeUndefined();
    expect(storage.getItem('cookieConsent')).toBe('{}');
  });

  it('reads nothing from a damaged entry', () => {
    storage.setItem('heartsync.unsent.draft:c3', 'not json');
    expect(findUnsentText('draft:c3')).toBeUndefined();
  });
});
