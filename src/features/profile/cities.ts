// The offline city list of the location picker: major cities with coordinates already on the 0.1-degree grid
// the profiles table keeps (no GPS, no street address). Facts written here, not copied from a dataset; see
// docs/decisions for why a small built-in list instead of a registry package.

export interface City {
  city: string;
  country: string;
  lat: number;
  lng: number;
}

const RAW: [string, string, number, number][] = [
  ['London', 'United Kingdom', 51.5, -0.1],
  ['Manchester', 'United Kingdom', 53.5, -2.2],
  ['Birmingham', 'United Kingdom', 52.5, -1.9],
  ['Leeds', 'United Kingdom', 53.8, -1.5],
  ['Glasgow', 'United Kingdom', 55.9, -4.3],
  ['Edinburgh', 'United Kingdom', 56.0, -3.2],
  ['Bristol', 'United Kingdom', 51.5, -2.6],
  ['Liverpool', 'United Kingdom', 53.4, -3.0],
  ['Cardiff', 'United Kingdom', 51.5, -3.2],
  ['Belfast', 'United Kingdom', 54.6, -5.9],
  ['Brighton', 'United Kingdom', 50.8, -0.1],
  ['Cambridge', 'United Kingdom', 52.2, 0.1],
  ['Oxford', 'United Kingdom', 51.8, -1.3],
  ['Reading', 'United Kingdom', 51.5, -1.0],
  ['Croydon', 'United Kingdom', 51.4, -0.1],
  ['Newcastle upon Tyne', 'United Kingdom', 55.0, -1.6],
  ['Dublin', 'Ireland', 53.3, -6.3],
  ['Cork', 'Ireland', 51.9, -8.5],
  ['Paris', 'France', 48.9, 2.4],
  ['Lyon', 'France', 45.8, 4.8],
  ['Marseille', 'France', 43.3, 5.4],
  ['Toulouse', 'France', 43.6, 1.4],
  ['Bordeaux', 'France', 44.8, -0.6],
  ['Lille', 'France', 50.6, 3.1],
  ['Nice', 'France', 43.7, 7.3],
  ['Nantes', 'France', 47.2, -1.6],
  ['Brussels', 'Belgium', 50.8, 4.4],
  ['Antwerp', 'Belgium', 51.2, 4.4],
  ['Amsterdam', 'Netherlands', 52.4, 4.9],
  ['Rotterdam', 'Netherlands', 51.9, 4.5],
  ['Utrecht', 'Netherlands', 52.1, 5.1],
  ['The Hague', 'Netherlands', 52.1, 4.3],
  ['Luxembourg', 'Luxembourg', 49.6, 6.1],
  ['Berlin', 'Germany', 52.5, 13.4],
  ['Hamburg', 'Germany', 53.6, 10.0],
  ['Munich', 'Germany', 48.1, 11.6],
  ['Cologne', 'Germany', 50.9, 7.0],
  ['Frankfurt', 'Germany', 50.1, 8.7],
  ['Stuttgart', 'Germany', 48.8, 9.2],
  ['Düsseldorf', 'Germany', 51.2, 6.8],
  ['Leipzig', 'Germany', 51.3, 12.4],
  ['Vienna', 'Austria', 48.2, 16.4],
  ['Zurich', 'Switzerland', 47.4, 8.5],
  ['Geneva', 'Switzerland', 46.2, 6.1],
  ['Madrid', 'Spain', 40.4, -3.7],
  ['Barcelona', 'Spain', 41.4, 2.2],
  ['Valencia', 'Spain', 39.5, -0.4],
  ['Seville', 'Spain', 37.4, -6.0],
  ['Lisbon', 'Portugal', 38.7, -9.1],
  ['Porto', 'Portugal', 41.2, -8.6],
  ['Rome', 'Italy', 41.9, 12.5],
  ['Milan', 'Italy', 45.5, 9.2],
  ['Naples', 'Italy', 40.9, 14.3],
  ['Turin', 'Italy', 45.1, 7.7],
  ['Florence', 'Italy', 43.8, 11.3],
  ['Bologna', 'Italy', 44.5, 11.3],
  ['Copenhagen', 'Denmark', 55.7, 12.6],
  ['Stockholm', 'Sweden', 59.3, 18.1],
  ['Gothenburg', 'Sweden', 57.7, 12.0],
  ['Oslo', 'Norway', 59.9, 10.8],
  ['Helsinki', 'Finland', 60.2, 24.9],
  ['Reykjavik', 'Iceland', 64.1, -21.9],
  ['Warsaw', 'Poland', 52.2, 21.0],
  ['Kraków', 'Poland', 50.1, 19.9],
  ['Prague', 'Czechia', 50.1, 14.4],
  ['Budapest', 'Hungary', 47.5, 19.0],
  ['Bucharest', 'Romania', 44.4, 26.1],
  ['Athens', 'Greece', 38.0, 23.7],
  ['Istanbul', 'Türkiye', 41.0, 29.0],
  ['Kyiv', 'Ukraine', 50.5, 30.5],
  ['New York', 'United States', 40.7, -74.0],
  ['Los Angeles', 'United States', 34.1, -118.2],
  ['Chicago', 'United States', 41.9, -87.6],
  ['Houston', 'United States', 29.8, -95.4],
  ['San Francisco', 'United States', 37.8, -122.4],
  ['Seattle', 'United States', 47.6, -122.3],
  ['Boston', 'United States', 42.4, -71.1],
  ['Miami', 'United States', 25.8, -80.2],
  ['Austin', 'United States', 30.3, -97.7],
  ['Denver', 'United States', 39.7, -105.0],
  ['Washington', 'United States', 38.9, -77.0],
  ['Atlanta', 'United States', 33.7, -84.4],
  ['Toronto', 'Canada', 43.7, -79.4],
  ['Montreal', 'Canada', 45.5, -73.6],
  ['Vancouver', 'Canada', 49.3, -123.1],
  ['Mexico City', 'Mexico', 19.4, -99.1],
  ['São Paulo', 'Brazil', -23.6, -46.6],
  ['Rio de Janeiro', 'Brazil', -22.9, -43.2],
  ['Buenos Aires', 'Argentina', -34.6, -58.4],
  ['Santiago', 'Chile', -33.4, -70.7],
  ['Bogotá', 'Colombia', 4.7, -74.1],
  ['Lima', 'Peru', -12.0, -77.0],
  ['Cape Town', 'South Africa', -33.9, 18.4],
  ['Johannesburg', 'South Africa', -26.2, 28.0],
  ['Lagos', 'Nigeria', 6.5, 3.4],
  ['Nairobi', 'Kenya', -1.3, 36.8],
  ['Cairo', 'Egypt', 30.0, 31.2],
  ['Casablanca', 'Morocco', 33.6, -7.6],
  ['Dubai', 'United Arab Emirates', 25.2, 55.3],
  ['Tel Aviv', 'Israel', 32.1, 34.8],
  ['Mumbai', 'India', 19.1, 72.9],
  ['Delhi', 'India', 28.6, 77.2],
  ['Bengaluru', 'India', 13.0, 77.6],
  ['Singapore', 'Singapore', 1.4, 103.8],
  ['Bangkok', 'Thailand', 13.8, 100.5],
  ['Kuala Lumpur', 'Malaysia', 3.1, 101.7],
  ['Jakarta', 'Indonesia', -6.2, 106.8],
  ['Manila', 'Philippines', 14.6, 121.0],
  ['Hong Kong', 'China', 22.3, 114.2],
  ['Shanghai', 'China', 31.2, 121.5],
  ['Beijing', 'China', 39.9, 116.4],
  ['Seoul', 'South Korea', 37.6, 127.0],
  ['Tokyo', 'Japan', 35.7, 139.7],
  ['Osaka', 'Japan', 34.7, 135.5],
  ['Sydney', 'Australia', -33.9, 151.2],
  ['Melbourne', 'Australia', -37.8, 145.0],
  ['Brisbane', 'Australia', -27.5, 153.0],
  ['Perth', 'Australia', -32.0, 115.9],
  ['Auckland', 'New Zealand', -36.8, 174.8],
  ['Wellington', 'New Zealand', -41.3, 174.8],
];

export const CITIES: readonly City[] = RAW.map(([city, country, lat, lng]) => ({ city, country, lat, lng }));

/** Cities whose name or country starts with (then contains) the query, case- and accent-insensitively. */
export function findCities(query: string, limit = 8): City[] {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  const q = fold(query.trim());
  if (!q) return [];
  const starts = CITIES.filter((c) => fold(c.city).startsWith(q));
  const contains = CITIES.filter((c) => !starts.includes(c) && fold(`${c.city}, ${c.country}`).includes(q));
  return [...starts, ...contains].slice(0, limit);
}
