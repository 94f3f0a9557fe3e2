// The token bucket with a fake clock: the burst passes, then only the refill rate does.
import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.ts';

describe('rate limiter', () => {
  it('lets a burst through, refuses the next, and refills at the rate', () => {
    let now = 0;
    const limiter = new RateLimiter(10, 5, () => now);
    expect(Array.from({ length: 5 }, () => limiter.tryTake())).toEqual([true, true, true, true, true]);
    expect(limiter.tryTake()).toBe(false);
    now += 100; // one token at 10 a second
    expect(limiter.tryTake()).toBe(true);
    expect(limiter.tryTake()).toBe(false);
    now += 10_000; // refills up to the burst, never beyond
    expect(Array.from({ length: 6 }, () => limiter.tryTake()).filter(Boolean)).toHaveLength(5);
  });
});
