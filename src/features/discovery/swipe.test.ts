import { describe, expect, it } from 'vitest';
import { getSwipeDecision, getSwipeThreshold } from './swipe.ts';

describe('swipe', () => {
  it('decides past a quarter of the card, at least 80 px', () => {
    expect(getSwipeThreshold(400)).toBe(100);
    expect(getSwipeThreshold(200)).toBe(80);
    expect(getSwipeDecision(101, 400)).toBe('like');
    expect(getSwipeDecision(-100, 400)).toBe('skip');
    expect(getSwipeDecision(99, 400)).toBeUndefined();
    expect(getSwipeDecision(-79, 200)).toBeUndefined();
  });
});
