import { describe, expect, it } from 'vitest';
import {
  decideSessionCheck,
  isIdleTimedOut,
  isSessionRefusal,
  SESSION_TIMEOUT_MS,
} from './session-timing.ts';

const now = Date.UTC(2025, 0, 1, 12);

describe('the inactivity timeout', () => {
  it('fires at 120 minutes without activity, not before', () => {
    expect(isIdleTimedOut(now - SESSION_TIMEOUT_MS + 1, now)).toBe(false);
    expect(isIdleTimedOut(now - SESSION_TIMEOUT_MS, now)).toBe(true);
    expect(isIdleTimedOut(now - 119 * 60_000, now)).toBe(false);
  });
});

describe('the periodic validity check', () => {
  const s = now / 1000;
  it('leaves a session with time to spare alone', () => {
    expect(decideSessionCheck({ expiresAt: s + 301, nowMs: now, online: true })).toBe('valid');
  });
  it('refreshes under 300 s before expiry and after expiry', () => {
    expect(decideSessionCheck({ expiresAt: s + 299, nowMs: now, online: true })).toBe('refresh');
    expect(decideSessionCheck({ expiresAt: s - 10, nowMs: now, online: true })).toBe('refresh');
  });
  it('never fails while offline', () => {
    expect(decideSessionCheck({ expiresAt: s - 10, nowMs: now, online: false })).toBe('skip-offline');
    expect(decideSessionCheck({ expiresAt: undefined, nowMs: now, online: false })).toBe('skip-offline');
  });
  it('waits when the session could not be renewed for want of a server, and ends it when the server refused', () => {
    const unreachable = { status: 0, name: 'AuthRetryableFetchError' };
    expect(
      decideSessionCheck({ expiresAt: undefined, nowMs: now, online: true, sessionError: unreachable }),
    ).toBe('skip-unreachable');
    expect(
      decideSessionCheck({ expiresAt: undefined, nowMs: now, online: true, sessionError: { status: 503 } }),
    ).toBe('skip-unreachable');
    const refused = { status: 400, name: 'AuthApiError' };
    expect(
      decideSessionCheck({ expiresAt: undefined, nowMs: now, online: true, sessionError: refused }),
    ).toBe('expired');
  });
  it('treats a session without expiry as expired', () => {
    expect(decideSessionCheck({ expiresAt: undefined, nowMs: now, online: true })).toBe('expired');
  });
});

describe('refusal versus network trouble', () => {
  it('counts 4xx answers as refusals', () => {
    expect(isSessionRefusal({ status: 401 })).toBe(true);
    expect(isSessionRefusal({ status: 400, name: 'AuthApiError' })).toBe(true);
  });
  it('does not count network errors or 5xx', () => {
    expect(isSessionRefusal({ status: 0, name: 'AuthRetryableFetchError' })).toBe(false);
    expect(isSessionRefusal({ status: 503 })).toBe(false);
    expect(isSessionRefusal(null)).toBe(false);
  });
});
