// Coarse distances: positions are kept on a 0.1 degree grid and others only ever see a band,
// never metres, so no one can trilaterate a member. Mirrors public.get_distance_band and
// public.get_distance_km in supabase/migrations/0008_discovery.sql. Pure: no DOM, no Node.

export const DISTANCE_BANDS = [
  'under 5 km',
  '5-10 km',
  '10-25 km',
  '25-50 km',
  '50-100 km',
  '100+ km',
] as const;
export type DistanceBand = (typeof DISTANCE_BANDS)[number];

/** Upper bounds (exclusive, km) of every band but the last. */
const BAND_LIMITS = [5, 10, 25, 50, 100] as const;

/** Grid step of stored positions, in degrees (about 11 km of latitude). */
export const LOCATION_GRID_DEGREES = 0.1;

const EARTH_RADIUS_KM = 6371;

export function getDistanceBand(km: number): DistanceBand {
  if (!Number.isFinite(km) || km < 0) throw new RangeError(`Invalid distance: ${km}`);
  const index = BAND_LIMITS.findIndex((limit) => km < limit);
  return DISTANCE_BANDS[index === -1 ? DISTANCE_BANDS.length - 1 : index] as DistanceBand;
}

/** 1 for the nearest band ... 6 for the farthest, as get_distance_band_rank in SQL. */
export function getDistanceBandRank(band: DistanceBand): number {
  return DISTANCE_BANDS.indexOf(band) + 1;
}

/** Whether a band is within a maximum band (a "max distance" preference). */
export function isWithinBand(band: DistanceBand, maxBand: DistanceBand): boolean {
  return getDistanceBandRank(band) <= getDistanceBandRank(maxBand);
}

/** Great-circle distance in km (haversine), as public.get_distance_km. */
export function getDistanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h =
    Math.sin(rad(lat2 - lat1) / 2) ** 2 +
    Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Snaps a coordinate to the grid the database stores (numeric(4,1) rounds half away from zero).
 * Throws on NaN, Infinity or out-of-range values, which the database refuses too.
 */
export function snapCoordinate(value: number, kind: 'lat' | 'lng'): number {
  const max = kind === 'lat' ? 90 : 180;
  if (!Number.isFinite(value) || Math.abs(value) > max) throw new RangeError(`Invalid ${kind}: ${value}`);
  const snapped = (Math.sign(value) * Math.round(Math.abs(value) * 10 + 1e-9)) / 10;
  return Object.is(snapped, -0) ? 0 : snapped;
}
