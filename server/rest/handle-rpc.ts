// /rest/v1/rpc/<fn>: calls a function of schema public with named arguments matched against pg_proc,
// and answers as PostgREST does (a scalar as a bare JSON value, a row as an object, a set as an array).
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import type { Catalog, RoutineInfo } from './catalog.ts';
import { Params, quoteIdent, SchemaMissError, SOURCE_ALIAS } from './build-sql.ts';
import { RestError } from './errors.ts';
import type { Prefer } from './parse-query.ts';
import type { Representation } from './request-context.ts';
import { getEffectiveLimit, runRead, type ReadQuery, type RestResult } from './handle-table.ts';

function describe(name: string, keys: string[]): string {
  return `public.${name}(${[...keys].sort().join(', ')})`;
}

/** Picks the overload the arguments fit: every given name is a parameter and every parameter without default is given. */
export function getRoutine(
  catalog: Catalog,
  name: string,
  keys: string[],
  singleObject: boolean,
): RoutineInfo {
  const candidates = catalog.functions.get(name) ?? [];
  const fits = candidates.filter((f) => {
    if (singleObject || (f.args.length === 1 && f.args[0]?.name === '')) {
      const only = f.args[0];
      return f.args.length === 1 && only !== undefined && (only.type === 'json' || only.type === 'jsonb');
    }
    const names = new Set(f.args.map((a) => a.name));
    return keys.every((k) => names.has(k)) && f.args.every((a) => a.hasDefault || keys.includes(a.name));
  });
  if (fits.length === 0) {
    throw new SchemaMissError(
      404,
      'PGRST202',
      `Could not find the function ${describe(name, keys)} in the schema cache`,
      {
        hint: 'Check the function name and the names of its arguments.',
      },
    );
  }
  if (fits.length > 1) {
    throw new RestError(
      300,
      'PGRST203',
      `Could not choose the best candidate function between several overloads of public.${name}`,
      {
        hint: 'Overloaded functions must differ in the names of their arguments.',
      },
    );
  }
  return fits[0] as RoutineInfo;
}

/** The FROM clause that calls the function with the arguments bound from one JSON parameter. */
function buildCall(
  fn: RoutineInfo,
  args: Record<string, unknown>,
  singleObject: boolean,
  params: Params,
): string {
  const fnSql = `${quoteIdent('public')}.${quoteIdent(fn.name)}`;
  if (singleObject || (fn.args.length === 1 && fn.args[0]?.name === '')) {
    const type = fn.args[0]?.type === 'jsonb' ? 'jsonb' : 'json';
    return `${fnSql}(${params.add(JSON.stringify(args))}::${type})`;
  }
  const given = fn.args.filter((a) => Object.hasOwn(args, a.name));
  if (given.length === 0) return `${fnSql}()`;
  // json_to_record converts each value with the parameter's own type, as PostgREST does.
  const definition = given.map((a) => `${quoteIdent(a.name)} ${a.type}`).join(', ');
  const record: Record<string, unknown> = {};
  for (const a of given) record[a.name] = args[a.name];
  const call = given.map((a) => `${quoteIdent(a.name)} := pgrst_a.${quoteIdent(a.name)}`).join(', ');
  return `json_to_record(${params.add(JSON.stringify(record))}::json) as pgrst_a(${definition}) cross join lateral ${fnSql}(${call})`;
}

/**
 * The name an RPC statement is prepared under on its connection (decision 0116), or undefined when the call's
 * query shapes its text (a select list, filters or an order): those texts are the client's to vary, and every
 * name stays prepared for the connection's life. Without them the text depends only on the function, which of
 * its arguments are given and a few flags, a set the catalog bounds. The name is the text's hash, so one name
 * never stands for two texts.
 */
export function getRpcStatementName(sql: string, query: ReadQuery): string | undefined {
  if (query.filters.length > 0 || query.order.length > 0 || query.select.some((s) => s.kind !== 'star'))
    return undefined;
  return `hs_rpc_${createHash('sha256').update(sql).digest('hex').slice(0, 32)}`;
}

export async function handleRpc(
  tx: Queryable,
  fn: RoutineInfo,
  args: Record<string, unknown>,
  query: ReadQuery,
  prefer: Prefer,
  representation: Representation,
  head: boolean,
): Promise<RestResult> {
  const params = new Params();
  const singleObject = prefer.params === 'single-object';
  const call = buildCall(fn, args, singleObject, params);
  if (prefer.return === 'minimal') {
    // supabase-js asks for this with head: true and object arguments: run it, answer no body.
    const sql = `select from ${call} as pgrst_v`;
    await tx.query(sql, params.values, { name: getRpcStatementName(sql, query) });
    return { status: 204, body: undefined, headers: {} };
  }
  if (fn.returnKind === 'composite') {
    const result = await runRead(tx, {
      fromSql: `${call} ${SOURCE_ALIAS}`,
      source: { name: fn.name, columns: new Set(fn.resultColumns), alias: SOURCE_ALIAS },
      query,
      params,
      count: prefer.count,
      representation: fn.returnsSet ? representation : { ...representation, singular: false },
      head,
      getName: (sql) => getRpcStatementName(sql, query),
    });
    if (fn.returnsSet || result.body === undefined) return result;
    // A function returning one row answers it as an object (null when it returned no row).
    const body = result.body === '[]' ? 'null' : result.body.slice(1, -1);
    return { ...result, status: 200, body };
  }
  const hasQuery =
    query.filters.length > 0 || query.order.length > 0 || query.select.some((s) => s.kind !== 'star');
  if (hasQuery) {
    throw new RestError(
      400,
      'PGRST100',
      `public.${fn.name} returns ${fn.returnType}: select, filters and order apply only to functions returning rows`,
    );
  }
  if (fn.returnType === 'void') {
    const sql = `select from ${call} as pgrst_v`;
    await tx.query(sql, params.values, { name: getRpcStatementName(sql, query) });
    return { status: 204, body: undefined, headers: {} };
  }
  const from = `${call} as ${SOURCE_ALIAS}(pgrst_v)`;
  let sql: string;
  if (fn.returnsSet) {
    const limit = ` limit ${params.add(getEffectiveLimit(query.limit))}::bigint`;
    const offset = query.offset ? ` offset ${params.add(query.offset)}::bigint` : '';
    sql = `select count(*)::int as rows, coalesce(json_agg(pgrst_s.pgrst_v), '[]')::text as body
      from (select ${SOURCE_ALIAS}.pgrst_v from ${from}${limit}${offset}) pgrst_s`;
  } else {
    sql = `select 1 as rows, to_json(${SOURCE_ALIAS}.pgrst_v)::text as body from ${from}`;
  }
  const r = await tx.query<{ rows: number; body: string | null }>(sql, params.values, {
    name: getRpcStatementName(sql, query),
  });
  const row = r.rows[0];
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (fn.returnsSet)
    headers['content-range'] =
      `${row && row.rows > 0 ? `0-${row.rows - 1}` : '*'}/${prefer.count ? row?.rows : '*'}`;
  return { status: 200, body: head ? undefined : (row?.body ?? 'null'), headers };
}
