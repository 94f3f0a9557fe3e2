// Parses PostgREST's query language (select, filters with and/or/not trees, order, limit/offset) into
// a small syntax tree; nothing here touches SQL, and every name is checked against the catalog later.
import { parseError, RestError } from './errors.ts';

export interface JsonStep {
  arrow: '->' | '->>';
  key: string;
}

export interface FieldRef {
  column: string;
  path: JsonStep[];
}

export interface EmbedItem {
  kind: 'embed';
  /** A table or view name, or a foreign-key column of the parent. */
  name: string;
  alias: string | undefined;
  /** `name!hint`: the foreign key's name or its columns, when several relate the two tables. */
  hint: string | undefined;
  /** `name!inner`: only parents that have a matching embedded row. */
  inner: boolean;
  select: SelectItem[];
}

export type SelectItem =
  | { kind: 'star' }
  | { kind: 'field'; field: FieldRef; alias: string | undefined; cast: string | undefined }
  | EmbedItem;

export interface Condition {
  kind: 'condition';
  field: FieldRef;
  negate: boolean;
  operator: string;
  /** (any) / (all) on eq, like, ilike, gt... */
  quantifier: 'any' | 'all' | undefined;
  /** fts(config) */
  language: string | undefined;
  value: string;
}

export interface LogicTree {
  kind: 'logic';
  operator: 'and' | 'or';
  negate: boolean;
  children: Filter[];
}

export type Filter = Condition | LogicTree;

export interface OrderTerm {
  field: FieldRef;
  descending: boolean;
  nulls: 'first' | 'last' | undefined;
}

export const OPERATORS = new Set([
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'match',
  'imatch',
  'in',
  'is',
  'isdistinct',
  'cs',
  'cd',
  'ov',
  'sl',
  'sr',
  'nxr',
  'nxl',
  'adj',
  'fts',
  'plfts',
  'phfts',
  'wfts',
]);
const QUANTIFIABLE = new Set(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch']);
const FTS = new Set(['fts', 'plfts', 'phfts', 'wfts']);

/** Query parameters with a meaning of their own; every other one is a filter (or an RPC argument). */
export const RESERVED_PARAMS = new Set(['select', 'order', 'limit', 'offset', 'columns', 'on_conflict']);

const MAX_DEPTH = 16;

/** Splits on `sep` at nesting depth 0, outside double quotes (a backslash escapes inside quotes). */
export function splitTopLevel(text: string, sep = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === '(') depth++;
    else if (ch === ')') {
      depth--;
      if (depth < 0) throw parseError(`Unbalanced parentheses in "${text}"`);
    } else if (ch === sep && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quoted) throw parseError(`Unclosed double quote in "${text}"`);
  if (depth !== 0) throw parseError(`Unbalanced parentheses in "${text}"`);
  parts.push(text.slice(start));
  return parts;
}

/** Removes surrounding double quotes and their backslash escapes. */
export function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return text;
}

const NAME = /^[^\s"(),:.>\-*]+$/u;

function parseName(raw: string, what: string): string {
  const t = raw.trim();
  if (t.startsWith('"')) {
    if (!t.endsWith('"') || t.length < 2) throw parseError(`Malformed quoted ${what} ${raw}`);
    const name = unquote(t);
    if (name === '') throw parseError(`Empty ${what} name`);
    return name;
  }
  if (!NAME.test(t)) throw parseError(`"${raw}" is not a valid ${what} name`);
  return t;
}

/** col, col->key, col->>key, "quoted col"->0 */
export function parseField(raw: string): FieldRef {
  const pieces = raw.split(/(->>|->)/);
  const head = pieces[0] ?? '';
  const column = parseName(head, 'column');
  const path: JsonStep[] = [];
  for (let i = 1; i < pieces.length; i += 2) {
    const arrow = pieces[i] as '->' | '->>';
    const key = unquote((pieces[i + 1] ?? '').trim());
    if (key === '') throw parseError(`Empty JSON key in "${raw}"`);
    path.push({ arrow, key });
  }
  return { column, path };
}

export function parseSelect(raw: string | undefined, depth = 0): SelectItem[] {
  if (raw === undefined || raw.trim() === '') return [{ kind: 'star' }];
  if (depth > MAX_DEPTH) throw parseError('Embedded resources nested too deeply');
  const items: SelectItem[] = [];
  for (const part of splitTopLevel(raw)) {
    const text = part.trim();
    if (text === '*') {
      items.push({ kind: 'star' });
      continue;
    }
    if (text === '') throw parseError(`Empty item in select=${raw}`);
    if (text.startsWith('...')) {
      throw new RestError(400, 'PGRST100', `Spread embeddings are not supported by this server: "${text}"`);
    }
    if (text.includes('(')) {
      items.push(parseEmbed(text, depth));
      continue;
    }
    let rest = text;
    let alias: string | undefined;
    const aliasMatch = /^("(?:[^"\\]|\\.)*"|[^:"]+):(?!:)/.exec(rest);
    if (aliasMatch?.[1]) {
      alias = parseName(aliasMatch[1], 'alias');
      rest = rest.slice(aliasMatch[0].length);
    }
    let cast: string | undefined;
    const castAt = rest.lastIndexOf('::');
    if (castAt >= 0) {
      cast = rest.slice(castAt + 2).trim();
      rest = rest.slice(0, castAt);
    }
    items.push({ kind: 'field', field: parseField(rest), alias, cast });
  }
  return items;
}

/** `[alias:]name[!hint][!inner](select)` */
function parseEmbed(text: string, depth: number): EmbedItem {
  const open = text.indexOf('(');
  if (!text.endsWith(')')) throw parseError(`"${text}" is not a valid embedded resource`);
  let head = text.slice(0, open).trim();
  let alias: string | undefined;
  const colon = head.indexOf(':');
  if (colon >= 0) {
    alias = parseName(head.slice(0, colon), 'alias');
    head = head.slice(colon + 1);
  }
  const [nameText = '', ...marks] = head.split('!');
  let hint: string | undefined;
  let inner = false;
  for (const m of marks) {
    if (m === 'inner') inner = true;
    else if (m === 'left') inner = false;
    else if (hint === undefined) hint = parseName(m, 'hint');
    else throw parseError(`"${text}" has too many ! hints`);
  }
  const select = parseSelect(text.slice(open + 1, -1), depth + 1);
  return { kind: 'embed', name: parseName(nameText, 'relation'), alias, hint, inner, select };
}

/** `[not.]op[(any|all)|(config)].value` of one filter. */
export function parseOperation(field: FieldRef, text: string): Condition {
  let rest = text;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const m = /^([a-z]+)(?:\(([A-Za-z0-9_]+)\))?\./.exec(rest);
  if (!m?.[1] || !OPERATORS.has(m[1])) {
    throw parseError(`"${text}" is not a valid filter`, 'Expected an operator such as eq., gt., in., is.');
  }
  const operator = m[1];
  const modifier = m[2];
  let quantifier: 'any' | 'all' | undefined;
  let language: string | undefined;
  if (modifier !== undefined) {
    if (FTS.has(operator)) language = modifier;
    else if (QUANTIFIABLE.has(operator) && (modifier === 'any' || modifier === 'all')) quantifier = modifier;
    else throw parseError(`"${operator}(${modifier})" is not a valid operator`);
  }
  return { kind: 'condition', field, negate, operator, quantifier, language, value: rest.slice(m[0].length) };
}

/** One `key=value` filter from the query string. */
export function parseFilterParam(key: string, value: string): Filter {
  const logic = /^(not\.)?(and|or)$/.exec(key);
  if (logic) return parseLogicTree(logic[2] as 'and' | 'or', Boolean(logic[1]), value, 0);
  return parseOperation(parseField(key), value);
}

function parseLogicTree(operator: 'and' | 'or', negate: boolean, value: string, depth: number): LogicTree {
  if (depth > MAX_DEPTH) throw parseError('Logic tree nested too deeply');
  const v = value.trim();
  if (!v.startsWith('(') || !v.endsWith(')')) {
    throw parseError(
      `"${value}" is not a valid logic tree`,
      'Expected a parenthesised list, e.g. or=(a.eq.1,b.gt.2)',
    );
  }
  const inner = v.slice(1, -1);
  if (inner.trim() === '') throw parseError(`Empty logic tree "${value}"`);
  const children = splitTopLevel(inner).map((item) => parseLogicItem(item.trim(), depth + 1));
  return { kind: 'logic', operator, negate, children };
}

function parseLogicItem(item: string, depth: number): Filter {
  const nested = /^(not\.)?(and|or)(\(.*\))$/s.exec(item);
  if (nested?.[3]) return parseLogicTree(nested[2] as 'and' | 'or', Boolean(nested[1]), nested[3], depth);
  const dot = item.indexOf('.');
  if (dot <= 0) throw parseError(`"${item}" is not a valid filter in a logic tree`);
  const cond = parseOperation(parseField(item.slice(0, dot)), item.slice(dot + 1));
  // Inside a logic tree a value may be double-quoted to hold reserved characters like , ( ).
  if (cond.operator !== 'in') cond.value = unquote(cond.value);
  return cond;
}

/** `(a,"b,c",d)` of in. -> ['a', 'b,c', 'd'] */
export function parseList(value: string): string[] {
  const v = value.trim();
  if (!v.startsWith('(') || !v.endsWith(')'))
    throw parseError(`"${value}" is not a list`, 'Expected (a,b,c)');
  const inner = v.slice(1, -1);
  if (inner.trim() === '') return [];
  return splitTopLevel(inner).map((s) => unquote(s.trim()));
}

/** `{a,b}` of like(any) etc. -> ['a','b'] */
export function parseBraceList(value: string): string[] {
  const v = value.trim();
  if (!v.startsWith('{') || !v.endsWith('}'))
    throw parseError(`"${value}" is not a list`, 'Expected {a,b,c}');
  const inner = v.slice(1, -1);
  if (inner.trim() === '') return [];
  return splitTopLevel(inner).map((s) => unquote(s.trim()));
}

export function parseOrder(raw: string): OrderTerm[] {
  return splitTopLevel(raw).map((term) => {
    const t = term.trim();
    if (t === '') throw parseError(`Empty term in order=${raw}`);
    const pieces = t.split('.');
    const field = parseField(pieces[0] ?? '');
    let descending = false;
    let nulls: 'first' | 'last' | undefined;
    for (const mod of pieces.slice(1)) {
      if (mod === 'asc') descending = false;
      else if (mod === 'desc') descending = true;
      else if (mod === 'nullsfirst') nulls = 'first';
      else if (mod === 'nullslast') nulls = 'last';
      else
        throw parseError(
          `"${t}" is not a valid order term`,
          'Expected column[.asc|.desc][.nullsfirst|.nullslast]',
        );
    }
    return { field, descending, nulls };
  });
}

/** A non-negative integer query parameter (limit, offset). */
export function parseCount(name: string, raw: string): number {
  if (!/^[0-9]{1,15}$/.test(raw))
    throw parseError(`"${raw}" is not a valid ${name}`, `${name} must be a non-negative integer`);
  return Number(raw);
}

/** columns=a,"b" of insert/upsert. */
export function parseColumnList(raw: string): string[] {
  return splitTopLevel(raw).map((c) => parseName(c, 'column'));
}

export interface Prefer {
  return: 'minimal' | 'representation' | 'headers-only' | undefined;
  count: 'exact' | 'planned' | 'estimated' | undefined;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | undefined;
  missing: 'default' | 'null' | undefined;
  params: 'single-object' | undefined;
}

/** Prefer headers (one or several, comma separated); unknown preferences are ignored, as PostgREST does. */
export function parsePrefer(header: string | string[] | undefined): Prefer {
  const prefer: Prefer = {
    return: undefined,
    count: undefined,
    resolution: undefined,
    missing: undefined,
    params: undefined,
  };
  const values = Array.isArray(header) ? header : header ? [header] : [];
  for (const entry of values.flatMap((h) => h.split(','))) {
    const [k, v] = entry
      .trim()
      .split('=')
      .map((s) => s.trim());
    if (k === 'return' && (v === 'minimal' || v === 'representation' || v === 'headers-only'))
      prefer.return = v;
    else if (k === 'count' && (v === 'exact' || v === 'planned' || v === 'estimated')) prefer.count = v;
    else if (k === 'resolution' && (v === 'merge-duplicates' || v === 'ignore-duplicates'))
      prefer.resolution = v;
    else if (k === 'missing' && (v === 'default' || v === 'null')) prefer.missing = v;
    else if (k === 'params' && v === 'single-object') prefer.params = v;
  }
  return prefer;
}

/** `Range: 0-9` (items) -> offset and limit. */
export function parseRangeHeader(
  header: string | undefined,
): { offset: number; limit: number | undefined } | undefined {
  if (!header) return undefined;
  const m = /^\s*(?:items=)?([0-9]{1,15})-([0-9]{0,15})\s*$/.exec(header);
  if (!m?.[1])
    throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', { details: `Range: ${header}` });
  const from = Number(m[1]);
  if (!m[2]) return { offset: from, limit: undefined };
  const to = Number(m[2]);
  if (to < from)
    throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', { details: `Range: ${header}` });
  return { offset: from, limit: to - from + 1 };
}
