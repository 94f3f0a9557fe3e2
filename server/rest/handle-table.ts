// GET/HEAD/POST/PATCH/DELETE on /rest/v1/<table or view>: reads with filters, order and ranges, and
// inserts, upserts, updates and deletes whose rows come back in the shape select= asks for.
import type { Queryable } from '../db/database.ts';
import type { Catalog, Relation } from './catalog.ts';
import { Embedder, type EmbedQuery } from './build-embed.ts';
import {
  buildLimit,
  buildOrder,
  buildProjection,
  buildWhere,
  Params,
  quoteIdent,
  SchemaMissError,
  SOURCE_ALIAS,
  type Source,
} from './build-sql.ts';
import { RestError } from './errors.ts';
import {
  parseColumnList,
  parseCount,
  parseFilterParam,
  parseOrder,
  parseSelect,
  RESERVED_PARAMS,
  type Filter,
  type OrderTerm,
  type Prefer,
  type SelectItem,
} from './parse-query.ts';
import { getSingularError, type Representation } from './request-context.ts';

/** What a handler answers; the route turns it into the HTTP response. */
export interface RestResult {
  status: number;
  /** JSON text, or undefined for no body. */
  body: string | undefined;
  headers: Record<string, string>;
}

/** The parts of the query string every table and RPC request shares. */
export interface ReadQuery {
  select: SelectItem[];
  filters: Filter[];
  order: OrderTerm[];
  limit: number | undefined;
  offset: number | undefined;
  columns: string[] | undefined;
  onConflict: string[] | undefined;
  /** Filters, order and ranges of embedded resources, by their path (other, other.nested). */
  embedded: Map<string, EmbedQuery>;
}

/** Splits the query string into reserved parameters and filters; `isArgument` keeps RPC arguments out. */
export function parseReadQuery(
  search: URLSearchParams,
  range: { offset: number; limit: number | undefined } | undefined,
  isArgument: (name: string) => boolean = () => false,
): ReadQuery {
  const q: ReadQuery = {
    select: parseSelect(search.get('select') ?? undefined),
    filters: [],
    order: [],
    limit: undefined,
    offset: undefined,
    columns: undefined,
    onConflict: undefined,
    embedded: new Map(),
  };
  const getEmbedded = (path: string): EmbedQuery => {
    let e = q.embedded.get(path);
    if (!e) {
      e = { filters: [], order: [], limit: undefined, offset: undefined };
      q.embedded.set(path, e);
    }
    return e;
  };
  for (const [key, value] of search) {
    if (key === 'apikey' || isArgument(key)) continue;
    // other.col=..., other.order=..., other.limit=...: about an embedded resource, not this one.
    const dot = /^(not\.)?(and|or)$/.test(key) ? -1 : (key.split('->')[0] ?? '').lastIndexOf('.');
    if (dot > 0) {
      const e = getEmbedded(key.slice(0, dot));
      const sub = key.slice(dot + 1);
      if (sub === 'order') e.order.push(...parseOrder(value));
      else if (sub === 'limit') e.limit = parseCount('limit', value);
      else if (sub === 'offset') e.offset = parseCount('offset', value);
      else e.filters.push(parseFilterParam(sub, value));
      continue;
    }
    if (RESERVED_PARAMS.has(key)) {
      if (key === 'order') q.order.push(...parseOrder(value));
      else if (key === 'limit') q.limit = parseCount('limit', value);
      else if (key === 'offset') q.offset = parseCount('offset', value);
      else if (key === 'columns') q.columns = parseColumnList(value);
      else if (key === 'on_conflict') q.onConflict = parseColumnList(value);
      continue;
    }
    q.filters.push(parseFilterParam(key, value));
  }
  if (range) {
    q.offset = (q.offset ?? 0) + range.offset;
    if (range.limit !== undefined)
      q.limit = q.limit === undefined ? range.limit : Math.min(q.limit, range.limit);
  }
  return q;
}

export function getRelation(catalog: Catalog, name: string): Relation {
  const rel = catalog.relations.get(name);
  if (!rel) {
    throw new SchemaMissError(
      404,
      'PGRST205',
      `Could not find the table 'public.${name}' in the schema cache`,
      {
        hint: null,
      },
    );
  }
  return rel;
}

function getSource(rel: Relation): Source {
  return { name: rel.name, columns: new Set(rel.columnOrder), alias: SOURCE_ALIAS };
}

/** The select list over `source`; with a relation and the catalog it may embed related rows. */
function buildSelectList(
  source: Source,
  query: ReadQuery,
  params: Params,
  from: { rel: Relation; catalog: Catalog } | undefined,
): { projection: string; conditions: string[] } {
  if (!from) {
    const first = query.embedded.keys().next();
    if (!first.done)
      throw new RestError(400, 'PGRST108', `'${first.value}' is not an embedded resource in this request`);
    return { projection: buildProjection(source, query.select, params), conditions: [] };
  }
  const embedder = new Embedder(from.catalog, query.embedded, params);
  const result = embedder.project(from.rel, source, query.select);
  embedder.checkAllUsed();
  return result;
}

function getRelationSql(rel: Relation): string {
  return `${quoteIdent('public')}.${quoteIdent(rel.name)}`;
}

function getContentRange(offset: number, rows: number, total: number | undefined): string {
  const range = rows > 0 ? `${offset}-${offset + rows - 1}` : '*';
  return `${range}/${total ?? '*'}`;
}

/** Rows a read answers at most, as Supabase's default "max rows" setting (a larger limit is lowered to it). */
export const MAX_ROWS = 1000;

export function getEffectiveLimit(limit: number | undefined): number {
  return Math.min(limit ?? MAX_ROWS, MAX_ROWS);
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** A read over `fromSql` (aliased pgrst_t): one statement that answers the rows as JSON and, if asked, the total. */
export async function runRead(
  tx: Queryable,
  args: {
    fromSql: string;
    source: Source;
    query: ReadQuery;
    params: Params;
    count: Prefer['count'];
    representation: Representation;
    head: boolean;
    /** Set for tables and views, so the select may embed related rows. */
    from?: { rel: Relation; catalog: Catalog };
    /** The name to prepare the statement under, if any (RPC calls, decision 0116). */
    getName?: (sql: string) => string | undefined;
  },
): Promise<RestResult> {
  const { fromSql, source, query, params, representation } = args;
  const { projection, conditions } = buildSelectList(source, query, params, args.from);
  const where = buildWhere(source, query.filters, params, conditions);
  const order = buildOrder(source, query.order, params);
  const limit = buildLimit(getEffectiveLimit(query.limit), query.offset, params);
  // planned and estimated are answered with the exact count: exact is always at least as good.
  const total = args.count ? `(select count(*) from ${fromSql}${where})::int` : 'null::int';
  const rowJson = representation.stripNulls ? 'json_strip_nulls(to_json(pgrst_s))' : 'pgrst_s';
  const body = args.head ? `null::text` : `coalesce(json_agg(${rowJson}), '[]')::text`;
  const sql = `select ${total} as total, count(*)::int as rows, ${body} as body
    from (select ${projection} from ${fromSql}${where}${order}${limit}) pgrst_s`;
  const r = await tx.query<{ total: number | null; rows: number; body: string | null }>(sql, params.values, {
    name: args.getName?.(sql),
  });
  const row = r.rows[0];
  const rows = row?.rows ?? 0;
  const totalCount = row?.total ?? undefined;
  const offset = query.offset ?? 0;
  if (args.count && totalCount !== undefined && offset > 0 && offset >= totalCount && totalCount > 0) {
    throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', {
      details: `An offset of ${offset} was requested, but there are only ${totalCount} rows.`,
    });
  }
  const headers: Record<string, string> = {
    ...JSON_HEADERS,
    'content-range': getContentRange(offset, rows, totalCount),
  };
  if (representation.singular && rows !== 1) throw getSingularError(rows);
  let text = row?.body ?? undefined;
  if (text !== undefined && representation.singular) text = text.slice(1, -1);
  const partial = totalCount !== undefined && rows < totalCount;
  return { status: partial ? 206 : 200, body: text, headers };
}

export async function handleTableRead(
  tx: Queryable,
  catalog: Catalog,
  rel: Relation,
  query: ReadQuery,
  prefer: Prefer,
  representation: Representation,
  head: boolean,
): Promise<RestResult> {
  return runRead(tx, {
    fromSql: `${getRelationSql(rel)} ${SOURCE_ALIAS}`,
    source: getSource(rel),
    query,
    params: new Params(),
    count: prefer.count,
    representation,
    head,
    from: { rel, catalog },
  });
}

function invalidBody(message: string): RestError {
  return new RestError(400, 'PGRST102', message);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkColumns(rel: Relation, columns: string[]): void {
  for (const c of columns) {
    if (!rel.columns.has(c)) {
      throw new SchemaMissError(
        400,
        'PGRST204',
        `Could not find the '${c}' column of '${rel.name}' in the schema cache`,
      );
    }
  }
}

interface MutationOutcome {
  rows: number;
  /** The JSON array of the changed rows (return=representation only). */
  body: string | undefined;
}

/** Runs a data-changing statement; with return=representation its rows come back shaped by select=. */
async function runMutation(
  tx: Queryable,
  catalog: Catalog,
  rel: Relation,
  dmlSql: string,
  params: Params,
  query: ReadQuery,
  prefer: Prefer,
  representation: Representation,
): Promise<MutationOutcome> {
  if (prefer.return !== 'representation') {
    const r = await tx.query(dmlSql, params.values);
    return { rows: r.rowCount, body: undefined };
  }
  const source = getSource(rel);
  const { projection } = buildSelectList(source, query, params, { rel, catalog });
  const order = buildOrder(source, query.order, params);
  const rowJson = representation.stripNulls ? 'json_strip_nulls(to_json(pgrst_s))' : 'pgrst_s';
  const r = await tx.query<{ rows: number; body: string }>(
    `with pgrst_m as (${dmlSql} returning ${SOURCE_ALIAS}.*)
     select count(*)::int as rows, coalesce(json_agg(${rowJson}), '[]')::text as body
     from (select ${projection} from pgrst_m ${SOURCE_ALIAS}${order}) pgrst_s`,
    params.values,
  );
  return { rows: r.rows[0]?.rows ?? 0, body: r.rows[0]?.body ?? '[]' };
}

/** The HTTP answer of a write; throws inside the transaction, so a .single() write of other than one row changes nothing. */
function getMutationResult(
  outcome: MutationOutcome,
  prefer: Prefer,
  representation: Representation,
  created: boolean,
): RestResult {
  if (representation.singular && outcome.rows !== 1) throw getSingularError(outcome.rows);
  let body = outcome.body;
  if (body !== undefined && representation.singular) body = body.slice(1, -1);
  const headers: Record<string, string> = { 'content-range': `*/${prefer.count ? outcome.rows : '*'}` };
  if (body !== undefined) Object.assign(headers, JSON_HEADERS);
  if (created) return { status: 201, body, headers };
  return { status: body === undefined ? 204 : 200, body, headers };
}

export async function handleInsert(
  tx: Queryable,
  catalog: Catalog,
  rel: Relation,
  payload: unknown,
  query: ReadQuery,
  prefer: Prefer,
  representation: Representation,
): Promise<RestResult> {
  const rows = Array.isArray(payload) ? payload : [payload];
  if (!rows.every(isPlainObject)) throw invalidBody('Expected a JSON object or an array of JSON objects');
  let columns = query.columns;
  if (!columns) {
    const first = rows[0] ? Object.keys(rows[0]) : [];
    const sameKeys = (r: Record<string, unknown>) => {
      const keys = Object.keys(r);
      return keys.length === first.length && keys.every((k) => first.includes(k));
    };
    if (!rows.every(sameKeys)) throw invalidBody('All object keys must match');
    columns = first;
  }
  checkColumns(rel, columns);
  const relSql = getRelationSql(rel);

  let conflictSql = '';
  if (prefer.resolution) {
    const target = query.onConflict ?? rel.primaryKey;
    if (target.length === 0) {
      throw new RestError(400, 'PGRST100', `on_conflict is required: ${rel.name} has no primary key`);
    }
    checkColumns(rel, target);
    const updates = columns.filter((c) => !target.includes(c));
    const action =
      prefer.resolution === 'ignore-duplicates'
        ? 'do nothing'
        : `do update set ${(updates.length > 0 ? updates : target).map((c) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`).join(', ')}`;
    conflictSql = ` on conflict (${target.map(quoteIdent).join(', ')}) ${action}`;
  }

  // missing=default: a row without a key gets the column default, so rows are inserted in groups of equal keys.
  const groups = new Map<string, { cols: string[]; rows: unknown[] }>();
  for (const r of rows) {
    const cols = prefer.missing === 'default' ? columns.filter((c) => Object.hasOwn(r, c)) : columns;
    const key = JSON.stringify(cols);
    const g = groups.get(key) ?? { cols, rows: [] };
    g.rows.push(r);
    groups.set(key, g);
  }
  if (groups.size === 0) groups.set('[]', { cols: columns, rows: [] });

  const outcomes: MutationOutcome[] = [];
  for (const g of groups.values()) {
    const params = new Params();
    const body = params.add(JSON.stringify(g.rows));
    const colList = g.cols.map(quoteIdent).join(', ');
    const dml =
      g.cols.length === 0
        ? `insert into ${relSql} as ${SOURCE_ALIAS} select from json_array_elements(${body}::json)${conflictSql}`
        : `insert into ${relSql} as ${SOURCE_ALIAS} (${colList}) select ${colList} from json_populate_recordset(null::${relSql}, ${body}::json)${conflictSql}`;
    outcomes.push(await runMutation(tx, catalog, rel, dml, params, query, prefer, representation));
  }
  const merged: MutationOutcome =
    outcomes.length === 1 && outcomes[0]
      ? outcomes[0]
      : {
          rows: outcomes.reduce((n, o) => n + o.rows, 0),
          body:
            prefer.return === 'representation'
              ? `[${outcomes
                  .map((o) => (o.body ?? '[]').slice(1, -1))
                  .filter((b) => b !== '')
                  .join(', ')}]`
              : undefined,
        };
  return getMutationResult(merged, prefer, representation, true);
}

export async function handleUpdate(
  tx: Queryable,
  catalog: Catalog,
  rel: Relation,
  payload: unknown,
  query: ReadQuery,
  prefer: Prefer,
  representation: Representation,
): Promise<RestResult> {
  if (!isPlainObject(payload)) throw invalidBody('Expected a JSON object of the columns to change');
  const columns = (query.columns ?? Object.keys(payload)).filter(
    (c) => query.columns || Object.hasOwn(payload, c),
  );
  checkColumns(rel, columns);
  if (query.filters.length === 0) {
    throw new RestError(400, '21000', 'UPDATE requires a WHERE clause', {
      hint: 'Add a filter, e.g. ?id=eq.<id>',
    });
  }
  if (query.limit !== undefined || query.offset !== undefined) {
    throw new RestError(400, 'PGRST100', 'limit and offset are not supported on updates');
  }
  const params = new Params();
  const relSql = getRelationSql(rel);
  const source = getSource(rel);
  if (columns.length === 0) {
    // Nothing to change: answer as PostgREST does, without touching any row.
    return {
      status: prefer.return === 'representation' ? 200 : 204,
      body: prefer.return === 'representation' ? '[]' : undefined,
      headers: prefer.return === 'representation' ? { ...JSON_HEADERS } : {},
    };
  }
  const body = params.add(JSON.stringify(payload));
  const where = buildWhere(source, query.filters, params);
  const sets = columns.map((c) => `${quoteIdent(c)} = pgrst_b.${quoteIdent(c)}`).join(', ');
  const dml = `update ${relSql} as ${SOURCE_ALIAS} set ${sets} from (select * from json_populate_record(null::${relSql}, ${body}::json)) pgrst_b${where}`;
  return getMutationResult(
    await runMutation(tx, catalog, rel, dml, params, query, prefer, representation),
    prefer,
    representation,
    false,
  );
}

export async function handleDelete(
  tx: Queryable,
  catalog: Catalog,
  rel: Relation,
  query: ReadQuery,
  prefer: Prefer,
  representation: Representation,
): Promise<RestResult> {
  if (query.filters.length === 0) {
    throw new RestError(400, '21000', 'DELETE requires a WHERE clause', {
      hint: 'Add a filter, e.g. ?id=eq.<id>',
    });
  }
  if (query.limit !== undefined || query.offset !== undefined) {
    throw new RestError(400, 'PGRST100', 'limit and offset are not supported on deletes');
  }
  const params = new Params();
  const where = buildWhere(getSource(rel), query.filters, params);
  const dml = `delete from ${getRelationSql(rel)} as ${SOURCE_ALIAS}${where}`;
  return getMutationResult(
    await runMutation(tx, catalog, rel, dml, params, query, prefer, representation),
    prefer,
    representation,
    false,
  );
}
