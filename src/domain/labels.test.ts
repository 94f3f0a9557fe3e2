// Codes read as words; unknown codes still read as words, never as raw dashes.
import { describe, expect, it } from 'vitest';
import { DISTANCE_BANDS } from './distance-band.ts';
import { getLabel } from './labels.ts';

describe('getLabel', () => {
  it('has words for the codes people meet', () => {
    expect(getLabel('its-complicated')).toBe("It's complicated");
    expect(getLabel('non-binary')).toBe('Non-binary');
    expect(getLabel('under 5 km')).toBe('Within 5 km');
    expect(getLabel('100+ km')).toBe('Any distance');
  });
  it('covers every distance band with its own words', () => {
    const words = DISTANCE_BANDS.map(getLabel);
    expect(new Set(words).size).toBe(DISTANCE_BANDS.length);
    for (const w of words) expect(w).toMatch(/^(Within \d+ km|Any distance)$/);
  });
  it('reads an unknown code as words', () => {
    expect(getLabel('new-kind-of-thing')).toBe('New kind of thing');
  });
});
