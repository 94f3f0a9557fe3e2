import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { holdAllUnsentTexts, restoreHeldUnsentTexts } from './held-unsent-text.ts';
import { findUnsentText, keepUnsentText } from './unsent-text.ts';
import { withMemoryLocalStorage } from './memory-storage.test-support.ts';

describe('unsent texts at a sign-out the member did not ask for', () => {
  const store = withMemoryLocalStorage({ beforeEach, afterEach });

  it('are out of every page’s reach until the same member signs in again, then come back as they were', () => {
    keepUnsentText('draft:c1', 'see you at eight');
    keepUnsentText('lovy', 'what should I ask?');
    store().setItem('cookieConsent', '{}');
    const before = findUnsentText('draft:c1');
    holdAllUnsentTexts('member-a');
    expect(findUnsentText('draft:c1')).toBeUndefined();
    expect(findUnsentText('lovy')).toBeUndefined();
    expect(store().getItem('cookieConsent')).toBe('{}');
    restoreHeldUnsentTexts('member-a');
    expect(findUnsentText('draft:c1')).toEqual(before);
    expect(findUnsentText('lovy')?.text).toBe('what should I ask?');
    // Restored once: a later sign-in finds nothing held.
    keepUnsentText('draft:c1', '');
    restoreHeldUnsentTexts('member-a');
    expect(findUnsentText('draft:c1')).toBeUndefined();
  });

  it('never reach another member: their sign-in deletes them unread', () => {
    keepUnsentText('draft:c1', 'private words');
    holdAllUnsentTexts('member-a');
    restoreHeldUnsentTexts('member-b');
    expect(findUnsentText('draft:c1')).toBeUndefined();
    restoreHeldUnsentTexts('member-a');
    expect(findUnsentText('draft:c1')).toBeUndefined();
    expect(store().length).toBe(0);
  });

  it('add up over two sign-outs of the same member, and a text typed since wins over the held one', () => {
    keepUnsentText('draft:c1', 'first');
    holdAllUnsentTexts('member-a');
    keepUnsentText('draft:c2', 'second');
    holdAllUnsentTexts('member-a');
    keepUnsentText('draft:c1', 'typed since');
    restoreHeldUnsentTexts('member-a');
    expect(findUnsentText('draft:c1')?.text).toBe('typed since');
    expect(findUnsentText('draft:c2')?.text).toBe('second');
  });

  it('replace what was held for another member, and a damaged entry restores nothing', () => {
    keepUnsentText('draft:c1', 'a’s words');
    holdAllUnsentTexts('member-a');
    keepUnsentText('draft:c2', 'b’s words');
    holdAllUnsentTexts('member-b');
    restoreHeldUnsentTexts('member-b');
    expect(findUnsentText('draft:c1')).toBeUndefined();
    expect(findUnsentText('draft:c2')?.text).toBe('b’s words');
    store().setItem('heartsync.heldUnsent', '{not json');
    restoreHeldUnsentTexts('member-b');
    expect(store().getItem('heartsync.heldUnsent')).toBeNull();
  });
});
