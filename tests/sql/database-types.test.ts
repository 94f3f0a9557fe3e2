// supabase-js is typed from the migrations (issue 14): the checked-in src/data/database.types.ts must be what
// `npm run db:types` makes of the migrated schema, so a migration that changes a table, view or function
// fails here until the type is generated again.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_TYPES_PATH, formatDatabaseTypes } from '../../scripts/database-types.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';

describe.each(getDatabaseKinds())('the Database type of supabase-js on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('is current with the migrations (run `npm run db:types` after changing one)', async () => {
    const checkedIn = fs.readFileSync(path.resolve(DATABASE_TYPES_PATH), 'utf8');
    const generated = await formatDatabaseTypes(db);
    expect(generated.split('\n')).toEqual(checkedIn.split('\n'));
  });

  it('holds the tables, views and functions the app calls, with their shapes', async () => {
    const text = await formatDatabaseTypes(db);
    const section = (table: string, part: 'Row' | 'Insert') =>
      new RegExp(` ${table}: \\{[^]*?${part}: \\{([^}]*)\\}`).exec(text)?.[1] ?? '';
    // A NOT NULL column a BEFORE INSERT trigger sets: required in a row, optional on insert.
    expect(section('video_calls', 'Row')).toMatch(/\n\s+pair_key: string;/);
    expect(section('video_calls', 'Insert')).toMatch(/\n\s+pair_key\?: string;/);
    // A nullable column; an argument of a function that is not STRICT takes a null.
    expect(section('profiles', 'Row')).toMatch(/\n\s+bio: string \| null;/);
    expect(text).toMatch(/get_discovery_candidates: \{\n\s+Args: \{[^}]*filter_genders: string\[\] \| null;/);
  });
});
