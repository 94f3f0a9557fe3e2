// The landing's figures are written as the English page does, without Intl's locale data.
import { describe, expect, it } from 'vitest';
import { formatCount } from './public-stats.tsx';

describe('formatCount', () => {
  it('groups thousands with commas, as Intl.NumberFormat("en") does for whole counts', () => {
    const en = new Intl.NumberFormat('en');
    for (const n of [0, 7, 42, 999, 1000, 12345, 100000, 1234567, 9007199254740991, -4200])
      expect(formatCount(n), String(n)).toBe(en.format(n));
  });
});
