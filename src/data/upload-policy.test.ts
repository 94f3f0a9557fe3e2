import { describe, expect, it } from 'vitest';
import {
  RETRY_FIRST_DELAY_MS,
  RETRY_MAX_DELAY_MS,
  classifyUploadError,
  describeRefusal,
  getRetryDelayMs,
} from './upload-policy.ts';

describe('classifyUploadError', () => {
  it('treats a unique violation (23505) as already applied', () => {
    expect(classifyUploadError({ code: '23505', status: 409 })).toBe('applied');
  });

  it.each([
    ['42501', 403],
    ['23514', 400],
    ['22P02', 400],
    ['P0001', 400],
    ['23503', 409],
    ['23502', 400],
  ])('drops a permission or validation refusal %s (%i)', (code, status) => {
    expect(classifyUploadError({ code, status })).toBe('refused');
  });

  it.each([400, 401, 403, 404, 405, 406, 409, 413, 422])(
    'drops any other 4xx from PostgREST (%i)',
    (status) => {
      expect(classifyUploadError({ code: 'PGRST204', status })).toBe('refused');
    },
  );

  it('retries when the request got no answer (offline, fetch failed)', () => {
    expect(classifyUploadError({ message: 'TypeError: Failed to fetch', status: 0 })).toBe('retry');
    expect(classifyUploadError({ message: 'aborted' })).toBe('retry');
  });

  it.each([500, 502, 503, 504, 408, 429])('retries server trouble and rate limits (%i)', (status) => {
    expect(classifyUploadError({ code: '', status })).toBe('retry');
  });

  it('retries transient SQLSTATEs (serialization, deadlock, shutdown) even with a 4xx-looking status', () => {
    for (const code of ['40001', '40P01', '57P01', '53300', '08006'])
      expect(classifyUploadError({ code, status: 409 })).toBe('retry');
  });

  it('retries an expired access token instead of losing the write', () => {
    expect(classifyUploadError({ code: 'PGRST303', status: 401 })).toBe('retry');
  });

  it('retries a token the server does not accept (a session ended elsewhere): the credentials are refused, not the write', () => {
    expect(classifyUploadError({ code: 'PGRST301', status: 401, message: 'Invalid JWT' })).toBe('retry');
    expect(classifyUploadError({ code: 'PGRST302', status: 401 })).toBe('retry');
    // A row the member may not write is still refused.
    expect(classifyUploadError({ code: '42501', status: 403 })).toBe('refused');
  });

  it('retries a write refused to anon (42501 answered 401): it went without a token, as a device signs out', () => {
    expect(classifyUploadError({ code: '42501', status: 401 })).toBe('retry');
  });

  it('never drops on a 5xx whatever the code says', () => {
    expect(classifyUploadError({ code: 'XX000', status: 500 })).toBe('retry');
  });
});

describe('getRetryDelayMs', () => {
  it('starts at 1 s and doubles up to 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(getRetryDelayMs)).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('stays within bounds for any attempt number', () => {
    for (const n of [-5, Number.NaN, Infinity, 1e9, 0.5]) {
      const d = getRetryDelayMs(n);
      expect(d).toBeGreaterThanOrEqual(RETRY_FIRST_DELAY_MS);
      expect(d).toBeLessThanOrEqual(RETRY_MAX_DELAY_MS);
    }
  });
});

describe('describeRefusal', () => {
  it('names what was lost and why, in plain words', () => {
    const r = describeRefusal('messages', {
      code: '42501',
      status: 403,
      message: 'new row violates row-level security policy',
    });
    expect(r.title).toBe('We could not save your message');
    expect(r.description).toMatch(/not allowed/);
    expect(r.description).not.toMatch(/row-level/);
  });

  it('translates the SQL error keys', () => {
    expect(
      describeRefusal('user_interactions', { code: 'P0001', message: 'daily_like_limit_reached' })
        .description,
    ).toBe('You have used all your likes for today.');
  });

  it('shows a sentence the SQL meant for people, but never a raw technical message', () => {
    expect(
      describeRefusal('game_rounds', { code: 'P0001', message: 'A choice is 1 to 200 characters' })
        .description,
    ).toBe('A choice is 1 to 200 characters.');
    expect(
      describeRefusal('messages', { code: '22P02', message: 'invalid input syntax for type uuid: "x"' })
        .description,
    ).toBe('The server did not accept it as it was.');
  });
});
