// The offline city list of the location picker: about 24,000 places of 15,000 people or more from GeoNames
// (CC BY 4.0), built by scripts/build-city-list.ts from registry packages into city-list.json. The list is a
// chunk of its own, loaded only when the picker opens; positions are already on the 0.1-degree grid the
// profiles table keeps (no GPS, no street address). Search is pure and unit-tested.

export interface City {
  city: string;
  /** First-level region (state, province), when GeoNames names one. */
  region: string;
  country: string;
  lat: number;
  lng: number;
}

/** The shape of city-list.json. */
export interface CityListFile {
  countries: Record<string, string>;
  regions: string[];
  /** [name, ISO country code, index in regions or -1, latitude * 10, longitude * 10], largest first. */
  cities: [string, string, number, number, number][];
}

export interface CityIndex {
  cities: readonly City[];
  /** Folded names, in the same order. */
  folded: readonly string[];
  /** Folded "region country" words, in the same order. */
  places: readonly string[];
}

/** Letters that do not decompose into a base letter plus marks. */
const SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};

/** Lower case without accents or punctuation, so "sao", "São" and "SAO" compare equal, as do "st-denis" and "st denis". */
export function foldText(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæœøłđðþı]/g, (c) => SPECIAL[c] ?? c)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function buildCityIndex(file: CityListFile): CityIndex {
  const cities: City[] = [];
  for (const [name, code, regionIndex, lat10, lng10] of file.cities) {
    cities.push({
      city: name,
      region: file.regions[regionIndex] ?? '',
      country: file.countries[code] ?? code,
      lat: lat10 / 10,
      lng: lng10 / 10,
    });
  }
  return {
    cities,
    folded: cities.map((c) => foldText(c.city)),
    places: cities.map((c) => foldText(`${c.region} ${c.country}`)),
  };
}

function hasWordStartingWith(text: string, q: string): boolean {
  return text.startsWith(q) || text.includes(` ${q}`);
}

/**
 * Cities for what the member typed, largest first within each group: names that start with the query,
 * then names with a later word that does. Text after a comma narrows by region or country
 * ("springfield, il" matches Springfield, Illinois). Case, accents and punctuation are ignored.
 */
export function findCities(index: CityIndex, query: string, limit = 8): City[] {
  const [namePart = '', ...rest] = query.split(',');
  const q = foldText(namePart);
  const where = foldText(rest.join(' '));
  if (!q) return [];
  const first: City[] = [];
  const later: City[] = [];
  for (let i = 0; i < index.cities.length && first.length < limit; i++) {
    const name = index.folded[i]!;
    if (where && !hasWordStartingWith(index.places[i]!, where)) continue;
    if (name.startsWith(q)) first.push(index.cities[i]!);
    else if (later.length < limit && name.includes(` ${q}`)) later.push(index.cities[i]!);
  }
  return [...first, ...later].slice(0, limit);
}

/** "Springfield, Illinois, United States" (the region only when it adds something). */
export function getCityLabel(c: Pick<City, 'city' | 'region' | 'country'>): string {
  return [c.city, c.region && c.region !== c.city ? c.region : '', c.country].filter(Boolean).join(', ');
}

let loading: Promise<CityIndex> | undefined;

/** The list, fetched from the app's own chunk on first use (precached by the service worker, so it works offline). */
export function loadCityIndex(): Promise<CityIndex> {
  // As text (?raw), so the type checker never reads the 800 kB file; JSON.parse is also the fastest way in.
  loading ??= import('./city-list.json?raw')
    .then((m) => buildCityIndex(JSON.parse(m.default) as CityListFile))
    .catch((e: unknown) => {
      loading = undefined;
      throw e;
    });
  return loading;
}
