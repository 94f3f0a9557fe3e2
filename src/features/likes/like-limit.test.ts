import { describe, expect, it } from 'vitest';
import { isLikeLimitRefusal } from './like-limit.ts';

describe('isLikeLimitRefusal', () => {
  it('recognises the SQL like limit on an uploaded like, and nothing else', () => {
    const limit = { code: 'P0001', message: 'daily_like_limit_reached' };
    expect(isLikeLimitRefusal({ table: 'user_interactions', error: limit })).toBe(true);
    expect(isLikeLimitRefusal({ table: 'messages', error: limit })).toBe(false);
    expect(
      isLikeLimitRefusal({ table: 'user_interactions', error: { code: '42501', message: 'denied' } }),
    ).toBe(false);
    expect(isLikeLimitRefusal({ table: 'user_interactions', error: {} })).toBe(false);
  });
});
