// The `Database` type supabase-js is typed with, generated from the migrations (issue 14): the tables, views
// and functions the REST API serves (schema `public`), in the shape `supabase gen types typescript` prints.
// Ours because that command needs the Supabase CLI and a running stack. `npm run db:types` writes
// src/data/database.types.ts; tests/sql/database-types.test.ts fails when the checked-in file is not current.
import fs from 'node:fs';
import path from 'node:path';
import type { Queryable } from '../server/db/database.ts';

export const DATABASE_TYPES_PATH = 'src/data/database.types.ts';

interface ColumnRow {
  relation: string;
  kind: 'r' | 'v' | 'm' | 'p';
  column: string;
  type: string;
  elem: string | null;
  nullable: boolean;
  has_default: boolean;
  generated: boolean;
}

interface FunctionRow {
  name: string;
  strict: boolean;
  args: { name: string; type: string; elem: string | null; mode: string; has_default: boolean }[];
  returns_set: boolean;
  return_type: string;
  return_elem: string | null;
  return_relation: string | null;
}

interface EnumRow {
  name: string;
  labels: string[];
}

const STRING_TYPES = new Set([
  'text',
  'varchar',
  'bpchar',
  'char',
  'name',
  'uuid',
  'citext',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'inet',
  'cidr',
  'bytea',
  'tsvector',
]);
const NUMBER_TYPES = new Set(['int2', 'int4', 'float4', 'float8', 'oid']);

/** The TypeScript type of a PostgreSQL type name (udt name); arrays by their element. */
function tsType(type: string, elem: string | null, enums: Map<string, string[]>): string {
  if (elem !== null) return `${wrap(tsType(elem, null, enums))}[]`;
  if (enums.has(type)) return `Database['public']['Enums']['${type}']`;
  if (type === 'bool') return 'boolean';
  if (type === 'json' || type === 'jsonb') return 'Json';
  if (type === 'void') return 'undefined';
  // int8 and numeric come as text from our server as from PostgREST when large: typed as supabase types them.
  if (type === 'int8' || type === 'numeric') return 'number';
  if (NUMBER_TYPES.has(type)) return 'number';
  if (STRING_TYPES.has(type)) return 'string';
  return 'unknown';
}

const wrap = (t: string) => (t.includes('|') ? `(${t})` : t);
const key = (name: string) => (/^[a-z_][a-z0-9_]*$/i.test(name) ? name : JSON.stringify(name));

async function readColumns(db: Queryable): Promise<ColumnRow[]> {
  const { rows } = await db.query<ColumnRow>(
    `select c.relname as relation, c.relkind as kind, a.attname as column,
            t.typname as type, et.typname as elem, not a.attnotnull as nullable,
            a.atthasdef as has_default, (a.attgenerated <> '' or a.attidentity = 'a') as generated
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
       join pg_type t on t.oid = a.atttypid
       left join pg_type et on et.oid = t.typelem and t.typcategory = 'A'
      where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p')
      order by c.relname, a.attnum`,
  );
  return rows;
}

async function readFunctions(db: Queryable): Promise<FunctionRow[]> {
  const { rows } = await db.query<FunctionRow>(
    `select p.proname as name, p.proisstrict as strict,
            coalesce((
              select json_agg(json_build_object(
                       'name', coalesce(p.proargnames[i], ''),
                       'type', t.typname, 'elem', et.typname,
                       'mode', coalesce(p.proargmodes[i]::text, 'i'),
                       'has_default', i > coalesce(array_length(p.proallargtypes, 1), p.pronargs) - p.pronargdefaults
                     ) order by i)
                from generate_series(1, coalesce(array_length(p.proallargtypes, 1), p.pronargs)) as i
                join pg_type t on t.oid = coalesce(p.proallargtypes[i], p.proargtypes[i - 1])
                left join pg_type et on et.oid = t.typelem and t.typcategory = 'A'
            ), '[]') as args,
            p.proretset as returns_set, rt.typname as return_type, ret.typname as return_elem,
            rc.relname as return_relation
       from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       join pg_type rt on rt.oid = p.prorettype
       left join pg_type ret on ret.oid = rt.typelem and rt.typcategory = 'A'
       left join pg_class rc on rc.oid = rt.typrelid and rc.relnamespace = n.oid
      where n.nspname = 'public' and p.prokind = 'f'
        and rt.typname not in ('trigger', 'event_trigger')
        and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
      order by p.proname, p.oid`,
  );
  return rows;
}

/**
 * Per table, the columns its BEFORE INSERT triggers set (`new.<column> :=`): an insert may leave them out
 * even when they are NOT NULL without a default (matches.pair_key, for one).
 */
async function readTriggerFilled(db: Queryable): Promise<Map<string, Set<string>>> {
  const { rows } = await db.query<{ relation: string; source: string }>(
    `select c.relname as relation, p.prosrc as source
       from pg_trigger tg
       join pg_class c on c.oid = tg.tgrelid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_proc p on p.oid = tg.tgfoid
      where n.nspname = 'public' and not tg.tgisinternal
        and (tg.tgtype & 2) <> 0 and (tg.tgtype & 4) <> 0`,
  );
  const filled = new Map<string, Set<string>>();
  for (const r of rows) {
    const set = filled.get(r.relation) ?? new Set<string>();
    for (const m of r.source.matchAll(/\bnew\.(\w+)\s*:=/gi)) if (m[1]) set.add(m[1].toLowerCase());
    filled.set(r.relation, set);
  }
  return filled;
}

async function readEnums(db: Queryable): Promise<EnumRow[]> {
  const { rows } = await db.query<EnumRow>(
    `select t.typname as name, array_agg(e.enumlabel order by e.enumsortorder) as labels
       from pg_type t join pg_enum e on e.enumtypid = t.oid join pg_namespace n on n.oid = t.typnamespace
      where n.nspname = 'public' group by t.typname order by t.typname`,
  );
  return rows;
}

/** The text of src/data/database.types.ts for the migrated database `db`. */
export async function generateDatabaseTypes(db: Queryable): Promise<string> {
  const enums = new Map((await readEnums(db)).map((e) => [e.name, e.labels]));
  const relations = new Map<string, { kind: string; columns: ColumnRow[] }>();
  for (const c of await readColumns(db)) {
    const r = relations.get(c.relation) ?? { kind: c.kind, columns: [] };
    r.columns.push(c);
    relations.set(c.relation, r);
  }
  const filled = await readTriggerFilled(db);
  const type = (c: ColumnRow) => tsType(c.type, c.elem, enums);
  const out: string[] = [
    '// Generated by `npm run db:types` from supabase/migrations (scripts/database-types.ts): do not edit.',
    '// The tables, views and functions of schema public, for supabase-js (`createClient<Database>`).',
    '',
    'export type Json = string | number | boolean | null | { [key: string]: Json | undefined } | Json[];',
    '',
    'export type Database = {',
    '  public: {',
    '    Tables: {',
  ];
  const tables = [...relations].filter(([, r]) => r.kind === 'r' || r.kind === 'p');
  const views = [...relations].filter(([, r]) => r.kind === 'v' || r.kind === 'm');
  for (const [name, r] of tables) {
    out.push(`      ${key(name)}: {`, '        Row: {');
    for (const c of r.columns)
      out.push(`          ${key(c.column)}: ${type(c)}${c.nullable ? ' | null' : ''};`);
    out.push('        };', '        Insert: {');
    const setByTrigger = filled.get(name) ?? new Set<string>();
    for (const c of r.columns) {
      if (c.generated) out.push(`          ${key(c.column)}?: never;`);
      else {
        const optional = c.nullable || c.has_default || setByTrigger.has(c.column);
        out.push(
          `          ${key(c.column)}${optional ? '?' : ''}: ${type(c)}${c.nullable ? ' | null' : ''};`,
        );
      }
    }
    out.push('        };', '        Update: {');
    for (const c of r.columns) {
      if (c.generated) out.push(`          ${key(c.column)}?: never;`);
      else out.push(`          ${key(c.column)}?: ${type(c)}${c.nullable ? ' | null' : ''};`);
    }
    out.push('        };', '        Relationships: [];', '      };');
  }
  out.push('    };', views.length === 0 ? '    Views: Record<never, never>;' : '    Views: {');
  for (const [name, r] of views) {
    out.push(`      ${key(name)}: {`, '        Row: {');
    // A view's columns are nullable to PostgreSQL whatever they come from.
    for (const c of r.columns) out.push(`          ${key(c.column)}: ${type(c)} | null;`);
    out.push('        };', '        Relationships: [];', '      };');
  }
  if (views.length > 0) out.push('    };');
  out.push('    Functions: {');
  const byName = new Map<string, FunctionRow[]>();
  for (const f of await readFunctions(db)) byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  for (const [name, overloads] of byName) {
    const shapes = overloads.map((f) => {
      const ins = f.args.filter((a) => a.mode === 'i' || a.mode === 'b');
      const tableOut = f.args.filter((a) => a.mode === 't' || a.mode === 'o' || a.mode === 'b');
      const args =
        ins.length === 0
          ? 'Record<PropertyKey, never>'
          : // A function that is not STRICT takes a null for any argument (the discovery filters are).
            `{ ${ins.map((a) => `${key(a.name)}${a.has_default ? '?' : ''}: ${tsType(a.type, a.elem, enums)}${f.strict ? '' : ' | null'}`).join('; ')} }`;
      let returns: string;
      if (tableOut.length > 0 && (f.return_type === 'record' || f.returns_set)) {
        returns = `{ ${tableOut.map((a) => `${key(a.name)}: ${tsType(a.type, a.elem, enums)}`).join('; ')} }`;
      } else if (f.return_relation !== null) {
        const rel = relations.get(f.return_relation);
        const section = rel && (rel.kind === 'v' || rel.kind === 'm') ? 'Views' : 'Tables';
        returns = `Database['public']['${section}']['${f.return_relation}']['Row']`;
      } else if (f.return_type === 'record') {
        returns = 'Record<string, unknown>';
      } else {
        returns = tsType(f.return_type, f.return_elem, enums);
      }
      if (f.returns_set) returns = `${wrap(returns)}[]`;
      return `{ Args: ${args}; Returns: ${returns} }`;
    });
    out.push(
      `      ${key(name)}:`,
      ...shapes.map((s, i) => `        ${i === 0 ? '' : '| '}${s}${i === shapes.length - 1 ? ';' : ''}`),
    );
  }
  out.push('    };', enums.size === 0 ? '    Enums: Record<never, never>;' : '    Enums: {');
  for (const [name, labels] of enums)
    out.push(`      ${key(name)}: ${labels.map((l) => JSON.stringify(l)).join(' | ')};`);
  if (enums.size > 0) out.push('    };');
  out.push('    CompositeTypes: Record<never, never>;', '  };', '};', '');
  return out.join('\n');
}

/** The file's text as checked in: generated, then formatted as the repository formats it. */
export async function formatDatabaseTypes(db: Queryable): Promise<string> {
  const prettier = await import('prettier');
  const file = path.resolve(DATABASE_TYPES_PATH);
  return prettier.format(await generateDatabaseTypes(db), {
    ...(await prettier.resolveConfig(file)),
    filepath: file,
  });
}

/** `npm run db:types`: migrate a fresh embedded database and write the file. */
async function main(): Promise<void> {
  const { openPglite } = await import('../server/db/open-pglite.ts');
  const { migrate } = await import('../server/db/migrate.ts');
  const db = await openPglite();
  try {
    await migrate(db);
    fs.writeFileSync(path.resolve(DATABASE_TYPES_PATH), await formatDatabaseTypes(db));
    console.log(`wrote ${DATABASE_TYPES_PATH}`);
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'))) {
  void main();
}
