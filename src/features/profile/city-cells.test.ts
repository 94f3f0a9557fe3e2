// The server accepts a member's location only on a cell of the city list (migration 0113, issue 13): the
// migration must hold exactly the list's cells, or a city the picker offers would be refused.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CityListFile } from './cities.ts';

const root = join(import.meta.dirname, '../../..');

describe('listed city cells', () => {
  it('migration 0113 holds exactly the grid cells of city-list.json', () => {
    const list = JSON.parse(
      readFileSync(join(root, 'src/features/profile/city-list.json'), 'utf8'),
    ) as CityListFile;
    const fromList = new Set(list.cities.map(([, , , lat10, lng10]) => `${lat10},${lng10}`));
    const sql = readFileSync(join(root, 'supabase/migrations/0113_listed_city_cells.sql'), 'utf8');
    const fromSql = [...sql.matchAll(/\((-?\d+),(-?\d+)\)/g)].map((m) => `${m[1]},${m[2]}`);
    expect(fromSql.length).toBe(new Set(fromSql).size);
    expect(new Set(fromSql)).toEqual(fromList);
  });
});
