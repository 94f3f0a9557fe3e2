// Which platform SQL runs, and when: found from the parts' own schema.sql files, never from a list here.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPlatformSql } from './migrate.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('listPlatformSql', () => {
  it('runs the bootstrap first, then every part that has a schema.sql, at the stage its first line says', () => {
    const found = listPlatformSql();
    expect(found[0]?.rel).toBe('server/db/bootstrap.sql');
    const parts = fs
      .readdirSync(path.join(root, 'server'))
      .filter((p) => fs.existsSync(path.join(root, 'server', p, 'schema.sql')))
      .sort()
      .map((p) => `server/${p}/schema.sql`);
    expect(found.slice(1).map((p) => p.rel)).toEqual(parts);
    expect(Object.fromEntries(found.map((p) => [p.rel, p.stage]))).toMatchObject({
      'server/auth/schema.sql': 'before',
      'server/storage/schema.sql': 'before',
      // Change capture needs the app's tables: after the migrations.
      'server/sync/schema.sql': 'after',
    });
    for (const p of found) expect(p.sql).toBe(fs.readFileSync(path.join(root, p.rel), 'utf8'));
  });
});
