import { describe, expect, it } from 'vitest';
import { getDistanceBand, getDistanceKm, isWithinBand, snapCoordinate } from './distance-band.ts';

describe('distance bands', () => {
  it('maps distances to coarse bands with exclusive upper bounds', () => {
    expect(getDistanceBand(0)).toBe('under 5 km');
    expect(getDistanceBand(4.99)).toBe('under 5 km');
    expect(getDistanceBand(5)).toBe('5-10 km');
    expect(getDistanceBand(24.9)).toBe('10-25 km');
    expect(getDistanceBand(50)).toBe('50-100 km');
    expect(getDistanceBand(100)).toBe('100+ km');
    expect(getDistanceBand(20000)).toBe('100+ km');
  });

  it('refuses impossible distances', () => {
    expect(() => getDistanceBand(Number.NaN)).toThrow(RangeError);
    expect(() => getDistanceBand(-1)).toThrow(RangeError);
  });

  it('compares bands as a maximum distance preference', () => {
    expect(isWithinBand('5-10 km', '10-25 km')).toBe(true);
    expect(isWithinBand('100+ km', '50-100 km')).toBe(false);
  });

  it('measures great-circle distance', () => {
    // Paris to London, about 344 km.
    expect(getDistanceKm(48.9, 2.4, 51.5, -0.1)).toBeGreaterThan(330);
    expect(getDistanceKm(48.9, 2.4, 51.5, -0.1)).toBeLessThan(360);
    expect(getDistanceKm(10, 10, 10, 10)).toBe(0);
  });

  it('snaps coordinates to the 0.1 degree grid and refuses bad ones', () => {
    expect(snapCoordinate(48.856613, 'lat')).toBe(48.9);
    expect(snapCoordinate(-0.05, 'lng')).toBe(-0.1);
    expect(snapCoordinate(2.35, 'lng')).toBe(2.4);
    expect(() => snapCoordinate(91, 'lat')).toThrow(RangeError);
    expect(() => snapCoordinate(Number.POSITIVE_INFINITY, 'lng')).toThrow(RangeError);
    expect(() => snapCoordinate(Number.NaN, 'lat')).toThrow(RangeError);
  });
});
