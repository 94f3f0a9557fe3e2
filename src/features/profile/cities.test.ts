import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCityList, toTenths } from '../../../scripts/build-city-list.ts';
import {
  buildCityIndex,
  findCities,
  foldText,
  getCityLabel,
  loadCityIndex,
  type CityListFile,
} from './cities.ts';

const small: CityListFile = {
  countries: { BR: 'Brazil', US: 'United States', DE: 'Germany', FR: 'France', PL: 'Poland' },
  regions: ['São Paulo', 'Illinois', 'Missouri', 'North Rhine-Westphalia', 'Île-de-France', 'Lesser Poland'],
  cities: [
    ['São Paulo', 'BR', 0, -235, -466],
    ['Paris', 'FR', 4, 489, 23],
    ['Springfield', 'US', 2, 372, -933],
    ['Springfield', 'US', 1, 398, -896],
    ['Köln', 'DE', 3, 509, 70],
    ['Kraków', 'PL', 5, 501, 199],
    ['Saint-Denis', 'FR', 4, 489, 24],
    ['Santo André', 'BR', 0, -237, -465],
    ['Nowhere', 'FR', -1, 450, 10],
  ],
};
const index = buildCityIndex(small);
const names = (q: string) => findCities(index, q).map((c) => `${c.city}/${c.region}`);

describe('city search', () => {
  it('folds case, accents and punctuation', () => {
    expect(foldText('São PAULO')).toBe('sao paulo');
    expect(foldText('Saint-Denis')).toBe('saint denis');
    expect(foldText('Łódź')).toBe('lodz');
    expect(foldText('Straße')).toBe('strasse');
  });

  it('finds cities as you type, accent-insensitively, largest first', () => {
    expect(names('sao')).toEqual(['São Paulo/São Paulo']);
    expect(names('SÃO p')).toEqual(['São Paulo/São Paulo']);
    expect(names('koln')).toEqual(['Köln/North Rhine-Westphalia']);
    expect(names('krakow')).toEqual(['Kraków/Lesser Poland']);
    expect(names('s')).toEqual([
      'São Paulo/São Paulo',
      'Springfield/Missouri',
      'Springfield/Illinois',
      'Saint-Denis/Île-de-France',
      'Santo André/São Paulo',
    ]);
  });

  it('puts names that start with the query before names with a later word that does', () => {
    expect(names('denis')).toEqual(['Saint-Denis/Île-de-France']);
    expect(names('saint denis')).toEqual(['Saint-Denis/Île-de-France']);
    expect(names('andre')).toEqual(['Santo André/São Paulo']);
    expect(names('aulo')).toEqual([]);
  });

  it('narrows by region or country after a comma', () => {
    expect(names('springfield, il')).toEqual(['Springfield/Illinois']);
    expect(names('springfield, united')).toEqual(['Springfield/Missouri', 'Springfield/Illinois']);
    expect(names('paris, germany')).toEqual([]);
    expect(names('s, brazil')).toEqual(['São Paulo/São Paulo', 'Santo André/São Paulo']);
  });

  it('returns nothing for an empty query and honours the limit', () => {
    expect(names('')).toEqual([]);
    expect(names(' , ')).toEqual([]);
    expect(findCities(index, 's', 2)).toHaveLength(2);
  });

  it('decodes positions in tenths of a degree and labels without repeating', () => {
    expect(findCities(index, 'paris')[0]).toEqual({
      city: 'Paris',
      region: 'Île-de-France',
      country: 'France',
      lat: 48.9,
      lng: 2.3,
    });
    expect(getCityLabel(findCities(index, 'springfield, il')[0]!)).toBe(
      'Springfield, Illinois, United States',
    );
    expect(getCityLabel(findCities(index, 'sao')[0]!)).toBe('São Paulo, Brazil');
    expect(getCityLabel(findCities(index, 'nowhere')[0]!)).toBe('Nowhere, France');
  });
});

describe('the shipped city list', () => {
  it('rounds positions half away from zero, as numeric(4,1) does', () => {
    expect(toTenths(51.50853)).toBe(515);
    expect(toTenths(-0.12574)).toBe(-1);
    expect(toTenths(42.45)).toBe(425);
    expect(toTenths(-42.45)).toBe(-425);
    expect(Object.is(toTenths(-0.04999), 0)).toBe(true);
    expect(toTenths(179.96)).toBe(1800);
  });

  it('is what scripts/build-city-list.ts makes from the installed packages', () => {
    const shipped = JSON.parse(readFileSync(new URL('./city-list.json', import.meta.url), 'utf8')) as unknown;
    expect(shipped).toEqual(buildCityList());
    // Decoding 135,000 places takes a second alone, longer on a machine busy with other suites.
  }, 60_000);

  it('loads lazily and finds real cities with grid positions', async () => {
    const all = await loadCityIndex();
    expect(all.cities.length).toBeGreaterThan(20_000);
    expect(findCities(all, 'london')[0]).toMatchObject({ city: 'London', country: 'United Kingdom' });
    expect(findCities(all, 'sao paulo')[0]).toMatchObject({ city: 'São Paulo', country: 'Brazil' });
    expect(findCities(all, 'zurich')[0]).toMatchObject({ city: 'Zürich', country: 'Switzerland' });
    expect(findCities(all, 'springfield, illinois')[0]).toMatchObject({ region: 'Illinois' });
    const offGrid = all.cities.filter(
      (c) =>
        Math.abs(c.lat) > 90 ||
        Math.abs(c.lng) > 180 ||
        Math.abs(c.lat * 10 - Math.round(c.lat * 10)) > 1e-9 ||
        Math.abs(c.lng * 10 - Math.round(c.lng * 10)) > 1e-9,
    );
    expect(offGrid).toEqual([]);
  }, 60_000);
});
