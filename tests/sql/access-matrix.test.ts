import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { getAllMatrixEntries, type MatrixWorld } from './support/access-matrix.ts';
import { buildMatrixWorld, runAccessMatrix } from './support/access-matrix-runner.ts';

describe.each(getDatabaseKinds())('cross-member access matrix on %s', (kind) => {
  let db: TestDatabase;
  let world: MatrixWorld;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    world = await buildMatrixWorld(db);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('every table in schema public has exactly one matrix entry', async () => {
    const tables = (
      await db.query<{ tablename: string }>(
        `select tablename from pg_tables where schemaname = 'public' order by tablename`,
      )
    ).rows.map((r) => r.tablename);
    const entries = getAllMatrixEntries().map((e) => e.table);
    const missing = tables.filter((t) => !entries.includes(t));
    expect(missing, 'tables without an access-matrix entry').toEqual([]);
    expect(
      entries.filter((t, i) => entries.indexOf(t) !== i),
      'duplicate entries',
    ).toEqual([]);
    expect(
      entries.filter((t) => !tables.includes(t)),
      'entries for tables that do not exist',
    ).toEqual([]);
  });

  it('every table has row-level security enabled', async () => {
    const r = await db.query<{ relname: string }>(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind = 'r' and not c.relrowsecurity`,
    );
    expect(r.rows.map((x) => x.relname)).toEqual([]);
  });

  it('only the allowed cells succeed for every table, actor and operation', async () => {
    const results = await runAccessMatrix(db, getAllMatrixEntries(), world);
    const wrong = results
      .filter((r) => r.expected !== r.actual)
      .map((r) => `${r.table} ${r.op} as ${r.actor}: expected ${r.expected ? 'allowed' : 'denied'}`);
    expect(wrong).toEqual([]);
    // The matrix is not vacuous: some cells are allowed and some denied.
    expect(results.some((r) => r.actual)).toBe(true);
    expect(results.some((r) => !r.actual)).toBe(true);
  });
});
