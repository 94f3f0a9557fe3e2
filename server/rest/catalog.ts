// The schema cache: tables, views, columns and functions of schema public, read from pg_catalog and
// kept for a short while, so every identifier in a request is checked against it before it is quoted.
import type { Queryable } from '../db/database.ts';

export interface Column {
  name: string;
  /** format_type() of the column, used only in casts the server writes itself. */
  type: string;
  hasDefault: boolean;
}

export interface Relation {
  name: string;
  kind: 'table' | 'view';
  columns: Map<string, Column>;
  /** Column names in table order. */
  columnOrder: string[];
  primaryKey: string[];
}

export interface FunctionArg {
  name: string;
  type: string;
  hasDefault: boolean;
}

export interface RoutineInfo {
  name: string;
  /** Input arguments in call order. */
  args: FunctionArg[];
  returnsSet: boolean;
  /** 'scalar' (base, domain, enum, pseudo like void), 'composite' (a row) */
  returnKind: 'scalar' | 'composite';
  returnType: string;
  /** Columns of a row result when known (table/out parameters/composite type). */
  resultColumns: string[];
  volatile: boolean;
}

/** A foreign key between two relations of public: `table(columns)` references `refTable(refColumns)`. */
export interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
}

export interface Catalog {
  relations: Map<string, Relation>;
  foreignKeys: ForeignKey[];
  functions: Map<string, RoutineInfo[]>;
  loadedAt: number;
  /** Changes when a table, view, column or function of public is added or dropped. */
  fingerprint: string;
}

/** Cheap to run on every miss: counts and newest oids of public's relations, columns and functions. */
const FINGERPRINT_SQL = `
select (select count(*) || ':' || coalesce(max(c.oid::int8), 0) from pg_class c where c.relnamespace = 'public'::regnamespace)
  || '/' || (select count(*) || ':' || coalesce(max(p.oid::int8), 0) from pg_proc p where p.pronamespace = 'public'::regnamespace)
  || '/' || (select count(*) from pg_attribute a join pg_class c on c.oid = a.attrelid
             where c.relnamespace = 'public'::regnamespace and a.attnum > 0 and not a.attisdropped) as fingerprint`;

async function getFingerprint(db: Queryable): Promise<string> {
  const r = await db.query<{ fingerprint: string }>(FINGERPRINT_SQL);
  return r.rows[0]?.fingerprint ?? '';
}

const RELATIONS_SQL = `
select c.relname as relation, c.relkind::text as kind, a.attname as column,
       format_type(a.atttypid, a.atttypmod) as type, a.atthasdef as has_default,
       coalesce(a.attnum = any(pk.conkey), false) as in_pk,
       coalesce(array_position(pk.conkey, a.attnum), 0) as pk_position
from pg_class c
join pg_namespace n on n.oid = c.relnamespace
join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
left join pg_constraint pk on pk.conrelid = c.oid and pk.contype = 'p'
where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'f', 'p')
order by c.relname, a.attnum`;

const FUNCTIONS_SQL = `
select p.proname as name, p.proretset as returns_set, p.provolatile::text as volatility,
       p.pronargdefaults as n_defaults,
       coalesce(p.proargnames, '{}'::text[]) as arg_names,
       coalesce(p.proargmodes::text[], '{}'::text[]) as arg_modes,
       array(select format_type(t, null) from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality u(t, i) order by i) as arg_types,
       rt.typtype::text as ret_typtype, format_type(p.prorettype, null) as ret_type,
       coalesce(array(select a.attname::text from pg_attribute a where a.attrelid = rt.typrelid and a.attnum > 0 and not a.attisdropped order by a.attnum), '{}'::text[]) as ret_columns
from pg_proc p
join pg_namespace n on n.oid = p.pronamespace
join pg_type rt on rt.oid = p.prorettype
where n.nspname = 'public' and p.prokind = 'f'`;

const FOREIGN_KEYS_SQL = `
select con.conname as name, c.relname as table, rc.relname as ref_table,
  array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as columns,
  array(select a.attname::text from unnest(con.confkey) with ordinality k(n, i)
        join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i) as ref_columns
from pg_constraint con
join pg_class c on c.oid = con.conrelid
join pg_class rc on rc.oid = con.confrelid
where con.contype = 'f' and c.relnamespace = 'public'::regnamespace and rc.relnamespace = 'public'::regnamespace
order by con.conname`;

interface RelationRow {
  relation: string;
  kind: string;
  column: string;
  type: string;
  has_default: boolean;
  in_pk: boolean;
  pk_position: number;
}

interface FunctionRow {
  name: string;
  returns_set: boolean;
  volatility: string;
  n_defaults: number;
  arg_names: string[];
  arg_modes: string[];
  arg_types: string[];
  ret_typtype: string;
  ret_type: string;
  ret_columns: string[];
}

export async function loadCatalog(db: Queryable): Promise<Catalog> {
  const fingerprint = await getFingerprint(db);
  const rels = await db.query<RelationRow>(RELATIONS_SQL);
  const fns = await db.query<FunctionRow>(FUNCTIONS_SQL);
  const fks = await db.query<{
    name: string;
    table: string;
    ref_table: string;
    columns: string[];
    ref_columns: string[];
  }>(FOREIGN_KEYS_SQL);
  const foreignKeys: ForeignKey[] = fks.rows.map((r) => ({
    name: r.name,
    table: r.table,
    columns: r.columns,
    refTable: r.ref_table,
    refColumns: r.ref_columns,
  }));
  const relations = new Map<string, Relation>();
  const pkPositions = new Map<string, Array<[number, string]>>();
  for (const r of rels.rows) {
    let rel = relations.get(r.relation);
    if (!rel) {
      rel = {
        name: r.relation,
        kind: r.kind === 'v' || r.kind === 'm' ? 'view' : 'table',
        columns: new Map(),
        columnOrder: [],
        primaryKey: [],
      };
      relations.set(r.relation, rel);
    }
    rel.columns.set(r.column, { name: r.column, type: r.type, hasDefault: r.has_default });
    rel.columnOrder.push(r.column);
    if (r.in_pk) {
      const list = pkPositions.get(r.relation) ?? [];
      list.push([Number(r.pk_position), r.column]);
      pkPositions.set(r.relation, list);
    }
  }
  for (const [name, list] of pkPositions) {
    const rel = relations.get(name);
    if (rel) rel.primaryKey = list.sort((a, b) => a[0] - b[0]).map(([, c]) => c);
  }

  const functions = new Map<string, RoutineInfo[]>();
  for (const f of fns.rows) {
    const args: FunctionArg[] = [];
    const outColumns: string[] = [];
    let variadic = false;
    f.arg_types.forEach((type, i) => {
      const mode = f.arg_modes[i] ?? 'i';
      const name = f.arg_names[i] ?? '';
      if (mode === 'v') variadic = true;
      if (mode === 'i' || mode === 'b' || mode === 'v') args.push({ name, type, hasDefault: false });
      if (mode === 'o' || mode === 'b' || mode === 't') outColumns.push(name);
    });
    if (variadic) continue; // variadic calls are not part of the API
    // The last pronargdefaults input arguments have defaults.
    for (let i = args.length - Number(f.n_defaults); i < args.length; i++) {
      const a = args[i];
      if (a) a.hasDefault = true;
    }
    const composite = f.ret_typtype === 'c' || (f.ret_type === 'record' && outColumns.length > 0);
    const info: RoutineInfo = {
      name: f.name,
      args,
      returnsSet: f.returns_set,
      returnKind: composite ? 'composite' : 'scalar',
      returnType: f.ret_type,
      resultColumns: outColumns.length > 0 ? outColumns : f.ret_columns,
      volatile: f.volatility === 'v',
    };
    const list = functions.get(f.name) ?? [];
    list.push(info);
    functions.set(f.name, list);
  }
  return { relations, foreignKeys, functions, loadedAt: Date.now(), fingerprint };
}

const TTL_MS = 10_000;

/** Holds the catalog; refreshes it after the TTL, or at once on a miss when the schema has changed since it was read. */
export class SchemaCache {
  private current: Catalog | undefined;
  private loading: Promise<Catalog> | undefined;
  private checking: Promise<Catalog> | undefined;
  /** Counts invalidations: a load that began before one may have read the schema it replaced. */
  private generation = 0;

  constructor(private readonly db: Queryable) {}

  async get(): Promise<Catalog> {
    if (!this.current) return this.reload();
    // Stale: answer with it and refresh in the background, so no request waits for the catalog queries.
    if (Date.now() - this.current.loadedAt >= TTL_MS) this.reload().catch(() => {});
    return this.current;
  }

  /** Called when a request names something not in the cache: a cheap check first, a full reload only if the schema changed. */
  async refreshAfterMiss(): Promise<Catalog> {
    const current = this.current;
    if (!current) return this.reload();
    this.checking ??= getFingerprint(this.db)
      .then((f) => (f === current.fingerprint ? current : this.reload()))
      .finally(() => {
        this.checking = undefined;
      });
    return this.checking;
  }

  /** Drops the catalog: the next request loads it again, and a load already under way is not kept. */
  invalidate(): void {
    this.current = undefined;
    this.loading = undefined;
    this.generation++;
  }

  private reload(): Promise<Catalog> {
    if (this.loading) return this.loading;
    const generation = this.generation;
    const loading = loadCatalog(this.db)
      .then((c) => {
        if (generation === this.generation) this.current = c;
        return c;
      })
      .finally(() => {
        if (this.loading === loading) this.loading = undefined;
      });
    this.loading = loading;
    return loading;
  }
}
