// Discovery's pool (0061) reads nearer bands through a latitude/longitude box: get_discovery_box must
// hold every position within the band, for viewers anywhere (equator, high latitudes, near a pole,
// beside the antimeridian). Positions are stored on a 0.1 degree grid, so the grid is every case.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';

describe.each(getDatabaseKinds())('discovery distance box on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('every grid position within the band lies inside the box', async () => {
    const r = await db.query<{ checked: string; in_band: string; outside: unknown; bounded_away: string }>(`
      with viewers as (
        select lat::numeric(4, 1) as lat, lng::numeric(4, 1) as lng
        from unnest(array[-84.9, -60, -0.1, 0, 33.3, 51.5, 70, 80.2, 85]) lat,
          unnest(array[0, 10.5, -179.9, 179.5]) lng
      ),
      boxes as (
        select v.lat, v.lng, rank, b.lat_delta, b.lng_delta
        from viewers v cross join generate_series(1, 5) rank
        cross join lateral public.get_discovery_box(v.lat, v.lng, rank) b
      ),
      -- the grid around each viewer, 0.3 degree beyond the box (3 degrees of longitude when unbounded)
      grid as (
        select bx.*, (bx.lat + i / 10.0)::numeric(4, 1) as lat2, lng2
        from boxes bx
        cross join lateral generate_series(-ceil(bx.lat_delta * 10 + 3)::int, ceil(bx.lat_delta * 10 + 3)::int) i
        cross join lateral (
          select (bx.lng + j / 10.0 + case when bx.lng + j / 10.0 > 180 then -360
            when bx.lng + j / 10.0 < -180 then 360 else 0 end)::numeric(4, 1) as lng2
          from generate_series(-coalesce(ceil(bx.lng_delta * 10 + 3)::int, 30),
            coalesce(ceil(bx.lng_delta * 10 + 3)::int, 30)) j
        ) l
        where abs(bx.lat + i / 10.0) <= 90
      ),
      checked as (
        select g.*, public.get_distance_band_rank(public.get_distance_band(
          public.get_distance_km(g.lat, g.lng, g.lat2, g.lng2))) <= g.rank as in_band
        from grid g
      )
      select count(*) as checked, count(*) filter (where in_band) as in_band,
        (select count(*) from boxes where lng_delta is not null and lng in (0, 10.5) and abs(lat) <= 80.2)
          as bounded_away,
        (select jsonb_agg(to_jsonb(c)) from (select lat, lng, rank, lat_delta, lng_delta, lat2, lng2 from checked
          where in_band and (abs(lat2 - lat) > lat_delta or (lng_delta is not null and abs(lng2 - lng) > lng_delta))
          limit 5) c) as outside
      from checked
    `);
    const row = r.rows[0]!;
    expect(row.outside).toBeNull();
    expect(Number(row.in_band)).toBeGreaterThan(5_000);
    expect(Number(row.checked)).toBeGreaterThan(3 * Number(row.in_band));
    // Away from the poles and the antimeridian the longitude is bounded (7 latitudes, 2 longitudes, 5 bands).
    expect(Number(row.bounded_away)).toBe(70);
  });

  it('bounds nothing for the widest band or without a position, and stays tight at the equator', async () => {
    const box = (lat: number | null, lng: number | null, rank: number | null) =>
      db
        .query<{ lat_delta: string; lng_delta: string | null }>(
          'select lat_delta::text, lng_delta::text from public.get_discovery_box($1, $2, $3)',
          [lat, lng, rank],
        )
        .then((x) => x.rows);
    expect(await box(10, 10, 6)).toEqual([]);
    expect(await box(10, 10, null)).toEqual([]);
    expect(await box(null, null, 3)).toEqual([]);
    const [equator] = await box(0, 0, 3);
    // 25 km is 0.225 degrees on a great circle; plus the 0.01 slack.
    expect(Number(equator!.lat_delta)).toBeCloseTo(0.2348, 3);
    expect(Number(equator!.lng_delta)).toBeCloseTo(0.2348, 3);
    // At 60 degrees a degree of longitude is half as long, so the box is about twice as wide.
    const [north] = await box(60, 0, 3);
    expect(Number(north!.lng_delta)).toBeGreaterThan(0.45);
    expect(Number(north!.lng_delta)).toBeLessThan(0.5);
    const [nearPole] = await box(88.9, 0, 5);
    expect(nearPole!.lng_delta).toBeNull();
  });

  // 0132: a band's members are read at its grid points; those must be exactly the grid positions the band
  // holds, by the distance rule each member's row was checked with before, across the antimeridian (where
  // -180 and 180 are both stored) and around a pole (every longitude).
  it('the band grid points are exactly the grid positions within the band', async () => {
    const r = await db.query<{
      lat: string;
      lng: string;
      rank: number;
      brute: string;
      points: string;
      missing: string;
      extra: string;
      west: string;
      east: string;
    }>(`
      with viewers as (
        select lat::numeric(4, 1) as lat, lng::numeric(4, 1) as lng
        from (values (0.0, 0.0), (51.5, 10.5), (33.3, -179.9), (-0.1, 179.9), (-60.0, 180.0), (-45.2, -180.0),
          (-89.5, -180.0), (56.7, 2.2), (-12.3, 45.6), (66.6, -0.1)) v(lat, lng)
      ),
      -- every grid position within a degree of latitude; within 3 degrees of longitude (across the
      -- antimeridian too), or at every longitude for viewers beyond 80 degrees
      grid as (
        select v.lat, v.lng, (round(v.lat * 10)::int + i) / 10.0 as lat2, j / 10.0 as lng2
        from viewers v
        cross join generate_series(-10, 10) i
        cross join generate_series(-1800, 1800) j
        where abs(round(v.lat * 10)::int + i) <= 900
          and (abs(v.lat) > 80 or least(abs(j / 10.0 - v.lng), 360 - abs(j / 10.0 - v.lng)) <= 3)
      ),
      brute as (
        select g.lat, g.lng, rank, g.lat2, g.lng2
        from grid g
        cross join lateral (select public.get_distance_band_rank(public.get_distance_band(
          public.get_distance_km(g.lat, g.lng, g.lat2, g.lng2))) as band) m
        cross join generate_series(1, 5) rank
        where m.band <= rank and (abs(g.lat) <= 80 or rank in (1, 5))
      ),
      points as (
        select v.lat, v.lng, rank, p.point_lat as lat2, p.point_lng as lng2
        from viewers v cross join generate_series(1, 5) rank
        cross join lateral app_private.get_band_grid_points(v.lat, v.lng, rank) p
        -- the polar viewer (every longitude is tried) for the narrowest and widest bands only
        where abs(v.lat) <= 80 or rank in (1, 5)
      )
      select lat::text, lng::text, rank,
        count(b.lat2) as brute, count(p.lat2) as points,
        count(*) filter (where p.lat2 is null) as missing, count(*) filter (where b.lat2 is null) as extra,
        count(*) filter (where p.lng2 < 0) as west, count(*) filter (where p.lng2 > 0) as east
      from brute b full join points p using (lat, lng, rank, lat2, lng2)
      group by lat, lng, rank
      order by 1, 2, 3
    `);
    expect(r.rows).toHaveLength(47);
    for (const row of r.rows) {
      expect({ ...row, missing: Number(row.missing), extra: Number(row.extra) }).toMatchObject({
        missing: 0,
        extra: 0,
      });
      expect(Number(row.points)).toBe(Number(row.brute));
      expect(Number(row.points)).toBeGreaterThan(0);
    }
    const at = (lat: string, lng: string, rank: number) =>
      r.rows.find((x) => x.lat === lat && x.lng === lng && x.rank === rank)!;
    // Beside the antimeridian a band reaches both sides; -180 and 180 are both listed.
    expect(Number(at('33.3', '-179.9', 3).east)).toBeGreaterThan(0);
    expect(Number(at('-0.1', '179.9', 3).west)).toBeGreaterThan(0);
    // Near the south pole the widest near band holds the pole: every longitude of latitude -90.
    expect(Number(at('-89.5', '-180.0', 5).points)).toBeGreaterThan(3600);
  });

  // 0134 computes in tenths of a degree: a viewer off the grid (never stored: positions are numeric(4, 1))
  // is refused rather than answered with points for a rounded position.
  it('a viewer off the 0.1 degree grid is refused', async () => {
    await expect(db.query(`select * from app_private.get_band_grid_points(51.55, 10.5, 3)`)).rejects.toThrow(
      /0\.1 degree grid/,
    );
    const r = await db.query<{ lat: number; lng: number }>(
      `select point_lat::float8 as lat, point_lng::float8 as lng from app_private.get_band_grid_points(51.50, 10.5, 1)`,
    );
    expect(r.rows).toEqual([{ lat: 51.5, lng: 10.5 }]);
  });
});
