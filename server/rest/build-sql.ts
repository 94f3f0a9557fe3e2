// Turns the parsed request into SQL: identifiers are checked against the catalog and quoted, every
// value from the request becomes a bind parameter ($n), never part of the SQL text.
import { parseError, RestError } from './errors.ts';
import {
  parseBraceList,
  parseList,
  type Condition,
  type EmbedItem,
  type FieldRef,
  type Filter,
  type OrderTerm,
  type SelectItem,
} from './parse-query.ts';

/** Collects bind parameters and hands out their placeholders (and table aliases for embedded resources). */
export class Params {
  readonly values: unknown[] = [];
  private aliases = 0;
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  nextAlias(): string {
    this.aliases++;
    return `pgrst_t${this.aliases}`;
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** A name that is not in the catalog; the handler reloads the catalog once before answering with it. */
export class SchemaMissError extends RestError {}

/** The relation (or function result) a query reads from, under a SQL alias (pgrst_t at the top level). */
export interface Source {
  /** For error messages: table, view or function name. */
  name: string;
  columns: ReadonlySet<string>;
  alias: string;
}

/** Builds the SQL of an embedded resource in the projection of `parent`. */
export type EmbedBuilder = (item: EmbedItem, parent: Source) => string;

export const SOURCE_ALIAS = 'pgrst_t';

function getColumnSql(source: Source, column: string): string {
  if (!source.columns.has(column)) {
    throw new SchemaMissError(400, '42703', `column ${source.name}.${column} does not exist`);
  }
  return `${source.alias}.${quoteIdent(column)}`;
}

function getFieldSql(source: Source, field: FieldRef, params: Params): string {
  let sql = getColumnSql(source, field.column);
  for (const step of field.path) {
    // A key made of digits indexes a JSON array, as in PostgREST.
    const key = /^-?[0-9]{1,9}$/.test(step.key)
      ? `${params.add(Number(step.key))}::int`
      : `${params.add(step.key)}::text`;
    sql = `(${sql}${step.arrow}${key})`;
  }
  return sql;
}

/** Casts allowed in select=col::type; a fixed list, so no type name from the request reaches SQL. */
const CASTS: Record<string, string> = {
  text: 'text',
  varchar: 'varchar',
  int: 'integer',
  int2: 'smallint',
  int4: 'integer',
  int8: 'bigint',
  integer: 'integer',
  smallint: 'smallint',
  bigint: 'bigint',
  numeric: 'numeric',
  real: 'real',
  float4: 'real',
  float8: 'double precision',
  bool: 'boolean',
  boolean: 'boolean',
  json: 'json',
  jsonb: 'jsonb',
  uuid: 'uuid',
  date: 'date',
  time: 'time',
  timestamp: 'timestamp',
  timestamptz: 'timestamptz',
};

export function buildProjection(
  source: Source,
  items: SelectItem[],
  params: Params,
  embed?: EmbedBuilder,
): string {
  const parts: string[] = [];
  for (const item of items) {
    if (item.kind === 'star') {
      parts.push(`${source.alias}.*`);
      continue;
    }
    if (item.kind === 'embed') {
      if (!embed)
        throw new RestError(
          400,
          'PGRST200',
          `${source.name} cannot embed "${item.name}": embedding starts from tables`,
        );
      parts.push(embed(item, source));
      continue;
    }
    let sql = getFieldSql(source, item.field, params);
    if (item.cast !== undefined) {
      const type = CASTS[item.cast.toLowerCase()];
      if (!type)
        throw parseError(
          `Casting to "${item.cast}" is not supported`,
          `Supported: ${Object.keys(CASTS).join(', ')}`,
        );
      sql = `(${sql})::${type}`;
    }
    const lastStep = item.field.path[item.field.path.length - 1];
    const name = item.alias ?? lastStep?.key ?? item.field.column;
    parts.push(`${sql} as ${quoteIdent(name)}`);
  }
  return parts.join(', ');
}

const COMPARISONS: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'like',
  ilike: 'ilike',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
  isdistinct: 'is distinct from',
};

const FTS_FUNCTIONS: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};

/** Longest pattern a like, ilike, match or imatch filter may carry, and the most wildcards in a like. */
export const MAX_PATTERN_LENGTH = 200;
export const MAX_LIKE_WILDCARDS = 8;

/**
 * Refuses patterns whose matching cost grows with the text far beyond linear (issue 13: one regular
 * expression with back-references on a bio held the database for seconds): back-references in match and
 * imatch, long patterns, and likes with many wildcards.
 */
function checkPattern(operator: string, value: string): void {
  if (value.length > MAX_PATTERN_LENGTH)
    throw parseError(`The ${operator} pattern is too long`, `At most ${MAX_PATTERN_LENGTH} characters`);
  if ((operator === 'match' || operator === 'imatch') && /\\[1-9]|\\k</.test(value))
    throw parseError(`The ${operator} pattern uses a back-reference`, 'Back-references are not supported');
  if (
    (operator === 'like' || operator === 'ilike') &&
    (value.match(/[%*_]/g)?.length ?? 0) > MAX_LIKE_WILDCARDS
  )
    throw parseError(
      `The ${operator} pattern has too many wildcards`,
      `At most ${MAX_LIKE_WILDCARDS} of %, * and _`,
    );
}

function toLikePattern(operator: string, value: string): string {
  if (operator === 'like' || operator === 'ilike' || operator === 'match' || operator === 'imatch')
    checkPattern(operator, value);
  return operator === 'like' || operator === 'ilike' ? value.replace(/\*/g, '%') : value;
}

function buildCondition(source: Source, c: Condition, params: Params): string {
  const field = getFieldSql(source, c.field, params);
  let sql: string;
  if (c.operator === 'is') {
    const v = c.value.toLowerCase();
    const keyword = { null: 'null', not_null: 'not null', true: 'true', false: 'false', unknown: 'unknown' }[
      v
    ];
    if (!keyword)
      throw parseError(
        `"is.${c.value}" is not valid`,
        'Expected is.null, is.not_null, is.true, is.false or is.unknown',
      );
    sql = `${field} is ${keyword}`;
  } else if (c.operator === 'in') {
    sql = `${field} = any(${params.add(parseList(c.value))})`;
  } else if (c.operator in FTS_FUNCTIONS) {
    const fn = FTS_FUNCTIONS[c.operator] as string;
    const query =
      c.language === undefined
        ? `${fn}(${params.add(c.value)})`
        : `${fn}(${params.add(c.language)}::regconfig, ${params.add(c.value)})`;
    sql = `${field} @@ ${query}`;
  } else {
    const op = COMPARISONS[c.operator];
    if (!op) throw parseError(`Unknown operator "${c.operator}"`);
    if (c.quantifier) {
      const values = parseBraceList(c.value).map((v) => toLikePattern(c.operator, v));
      sql = `${field} ${op} ${c.quantifier}(${params.add(values)})`;
    } else {
      sql = `${field} ${op} ${params.add(toLikePattern(c.operator, c.value))}`;
    }
  }
  return c.negate ? `not (${sql})` : sql;
}

export function buildFilter(source: Source, f: Filter, params: Params): string {
  if (f.kind === 'condition') return buildCondition(source, f, params);
  const children = f.children.map((child) => `(${buildFilter(source, child, params)})`);
  const sql = children.join(f.operator === 'and' ? ' and ' : ' or ');
  return f.negate ? `not (${sql})` : sql;
}

export function buildWhere(source: Source, filters: Filter[], params: Params, extra: string[] = []): string {
  const all = [...filters.map((f) => `(${buildFilter(source, f, params)})`), ...extra];
  return all.length === 0 ? '' : ` where ${all.join(' and ')}`;
}

export function buildOrder(source: Source, order: OrderTerm[], params: Params): string {
  if (order.length === 0) return '';
  const terms = order.map((t) => {
    const nulls = t.nulls === 'first' ? ' nulls first' : t.nulls === 'last' ? ' nulls last' : '';
    return `${getFieldSql(source, t.field, params)}${t.descending ? ' desc' : ' asc'}${nulls}`;
  });
  return ` order by ${terms.join(', ')}`;
}

export function buildLimit(limit: number | undefined, offset: number | undefined, params: Params): string {
  let sql = '';
  if (limit !== undefined) sql += ` limit ${params.add(limit)}::bigint`;
  if (offset !== undefined && offset > 0) sql += ` offset ${params.add(offset)}::bigint`;
  return sql;
}
