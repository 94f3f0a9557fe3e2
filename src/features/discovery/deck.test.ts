import { describe, expect, it } from 'vitest';
import { findFilterError, withoutHidden } from './deck.ts';

describe('findFilterError', () => {
  it('accepts empty and sensible filters', () => {
    expect(findFilterError({})).toBeUndefined();
    expect(findFilterError({ minAge: 25, maxAge: 40, maxDistanceBand: '10-25 km' })).toBeUndefined();
  });
  it('mirrors the RPC checks with clear messages', () => {
    expect(findFilterError({ minAge: 17 })).toBe('Minimum age must be a whole number from 18 to 120.');
    expect(findFilterError({ maxAge: 30.5 })).toBe('Maximum age must be a whole number from 18 to 120.');
    expect(findFilterError({ minAge: 40, maxAge: 30 })).toBe('Minimum age must not be above maximum age.');
    expect(findFilterError({ maxDistanceBand: '3 km' })).toBe('Choose a distance from the list.');
  });
});

describe('withoutHidden', () => {
  it('drops members blocked or reported on this device from a deck that was on its way', () => {
    const rows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(withoutHidden(rows, new Set(['b']))).toEqual([{ id: 'a' }, { id: 'c' }]);
    expect(withoutHidden(rows, new Set())).toBe(rows);
  });
});
