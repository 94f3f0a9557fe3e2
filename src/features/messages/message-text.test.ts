// Chat rules: sendable text, notification preview, the send key and why a conversation is closed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  findClosedReason,
  findImageMeta,
  findSendableText,
  getClosedText,
  getNotificationBody,
  isAiWritten,
  isSendKey,
} from './message-text.ts';

describe('getNotificationBody with an agent-written message', () => {
  it('says it was written with AI help', () => {
    expect(getNotificationBody('Hi Ben!', true)).toBe('Written with AI help: Hi Ben!');
    expect(getNotificationBody('Hi Ben!')).toBe('Hi Ben!');
  });
});

describe('isAiWritten', () => {
  it('is true only for the marking the Wingman writes', () => {
    expect(isAiWritten('{"ai":{"generated":true,"by":"agent","agent_name":"Cupid"}}')).toBe(true);
    // As the replica holds it: the sync service turns JSON booleans into 1.
    expect(isAiWritten('{"ai":{"by":"agent","generated":1}}')).toBe(true);
    for (const m of [
      null,
      undefined,
      '',
      '{}',
      'not json',
      '[1]',
      'null',
      '{"ai":true}',
      '{"ai":{"generated":"yes"}}',
    ])
      expect(isAiWritten(m)).toBe(false);
  });
  it('never throws, whatever the metadata', () => {
    fc.assert(fc.property(fc.string(), (s) => typeof isAiWritten(s) === 'boolean'));
  });
});

describe('message text rules', () => {
  it('never sends empty or whitespace-only text, and trims what it sends', () => {
    for (const s of ['', ' ', '\n\n', '\t \n ']) expect(findSendableText(s)).toBeUndefined();
    expect(findSendableText('  hi there \n')).toBe('hi there');
    expect(findSendableText('line 1\nline 2')).toBe('line 1\nline 2');
  });

  it('cuts notification bodies to 50 characters plus "..."', () => {
    expect(getNotificationBody('short')).toBe('short');
    expect(getNotificationBody('x'.repeat(50))).toBe('x'.repeat(50));
    expect(getNotificationBody('y'.repeat(51))).toBe(`${'y'.repeat(50)}...`);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const body = getNotificationBody(s);
        expect(body.length).toBeLessThanOrEqual(53);
        expect(s.startsWith(body.replace(/\.\.\.$/, ''))).toBe(true);
      }),
    );
  });

  it('Enter sends, Shift+Enter and composition do not', () => {
    expect(isSendKey({ key: 'Enter', shiftKey: false })).toBe(true);
    expect(isSendKey({ key: 'Enter', shiftKey: true })).toBe(false);
    expect(isSendKey({ key: 'Enter', shiftKey: false, isComposing: true })).toBe(false);
    expect(isSendKey({ key: 'a', shiftKey: false })).toBe(false);
  });

  it('says why messaging is closed', () => {
    const open = { matchId: 'm', matchExists: true, blockedByMe: false, otherVisible: true };
    expect(findClosedReason(open)).toBeUndefined();
    expect(findClosedReason({ ...open, blockedByMe: true })).toBe('you-blocked');
    expect(findClosedReason({ ...open, matchId: null })).toBe('unmatched');
    expect(findClosedReason({ ...open, matchExists: false })).toBe('unmatched');
    expect(findClosedReason({ ...open, otherVisible: false })).toBe('unavailable');
    expect(getClosedText('you-blocked', 'Bob')).toBe('You blocked Bob. Messaging is closed.');
  });

  it('reads an image size from metadata only when it is a sensible pair of whole pixels', () => {
    expect(findImageMeta('{"width":640,"height":480}')).toEqual({ width: 640, height: 480 });
    for (const m of [
      null,
      undefined,
      '',
      '{}',
      'not json',
      '[]',
      'null',
      '{"width":640}',
      '{"width":0,"height":1}',
      '{"width":1.5,"height":2}',
      '{"width":"640","height":"480"}',
      '{"width":1e9,"height":1}',
    ])
      expect(findImageMeta(m)).toBeUndefined();
  });
});
