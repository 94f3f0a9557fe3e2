// The replica's schema must hold exactly the tables and columns the sync rules send, typed as PowerSync stores them.
import fs from 'node:fs';
import path from 'node:path';
import {
  SchemaGenerator,
  SqlSyncRules,
  StaticSchema,
  type SourceSchema,
  type SyncConfig,
} from '@powersync/service-sync-rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-databases.ts';
import { AppSchema, LOCAL_ONLY_TABLES, STRUCTURED_COLUMNS, SYNCED_TABLES } from './schema.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Uses the PowerSync Service's own client-schema inference, which needs the source tables' column types. */
class ColumnLister extends SchemaGenerator {
  readonly key = 'columns';
  readonly label = 'columns';
  readonly mediaType = 'application/json';
  readonly fileName = 'columns.json';
  generate(config: SyncConfig, schema: SourceSchema): string {
    const tables = this.getAllTables(config, schema).map((t) => [
      t.name,
      Object.fromEntries(t.columns.map((c) => [c.name, this.columnType(c)])),
    ]);
    return JSON.stringify(Object.fromEntries(tables));
  }
}

let db: TestDatabase;
let expected: Record<string, Record<string, string>>;
/** Synced columns stored on the server as arrays or json(b), by table. */
let structured: Record<string, string[]>;

beforeAll(async () => {
  db = await createTestDatabase('pglite');
  const { rows } = await db.query<{
    table_name: string;
    column_name: string;
    udt_name: string;
    data_type: string;
  }>(
    `select table_name, column_name, udt_name, data_type from information_schema.columns
     where table_schema = 'public' order by table_name, ordinal_position`,
  );
  const tables = new Map<string, { name: string; pg_type: string }[]>();
  for (const r of rows) {
    const columns = tables.get(r.table_name) ?? [];
    columns.push({
      name: r.column_name,
      pg_type: r.data_type === 'ARRAY' ? `${r.udt_name.slice(1)}[]` : r.udt_name,
    });
    tables.set(r.table_name, columns);
  }
  const source = new StaticSchema([
    {
      tag: 'default',
      schemas: [{ name: 'public', tables: [...tables].map(([name, columns]) => ({ name, columns })) }],
    },
  ]);
  const yaml = fs.readFileSync(path.join(root, 'sync-rules/sync-rules.yaml'), 'utf8');
  const { config } = SqlSyncRules.fromYaml(yaml, { defaultSchema: 'public', throwOnError: true });
  expected = JSON.parse(new ColumnLister().generate(config, source)) as typeof expected;
  structured = {};
  for (const [table, columns] of Object.entries(expected)) {
    const pgTypes = new Map((tables.get(table) ?? []).map((c) => [c.name, c.pg_type]));
    const names = Object.keys(columns).filter((c) => /\[\]$|^jsonb?$/.test(pgTypes.get(c) ?? ''));
    if (names.length > 0) structured[table] = names.sort();
  }
}, 120_000);

afterAll(async () => {
  await db?.destroy();
});

describe('replica schema', () => {
  it('has exactly the tables the sync rules send', () => {
    expect(Object.keys(SYNCED_TABLES).sort()).toEqual(Object.keys(expected).sort());
  });

  it('has, for each synced table, exactly the columns the rules select, with the types PowerSync stores', () => {
    for (const [name, table] of Object.entries(SYNCED_TABLES)) {
      const actual = Object.fromEntries(table.columns.map((c) => [c.name, c.type?.toLowerCase()]));
      expect({ table: name, columns: actual }).toEqual({ table: name, columns: expected[name] });
    }
  });

  it('lists every array and json column the rules send, so uploads turn their JSON text back into values', () => {
    const listed = Object.fromEntries(
      Object.entries(STRUCTURED_COLUMNS).map(([t, cols]) => [t, [...(cols ?? [])].sort()]),
    );
    expect(listed).toEqual(structured);
  });

  it('keeps the local-only tables off the upload queue and apart from synced names', () => {
    for (const [name, table] of Object.entries(LOCAL_ONLY_TABLES)) {
      expect(table.localOnly).toBe(true);
      expect(expected[name]).toBeUndefined();
    }
    expect(AppSchema.tables.map((t) => t.name).sort()).toEqual(
      [...Object.keys(SYNCED_TABLES), ...Object.keys(LOCAL_ONLY_TABLES)].sort(),
    );
  });
});
