// Embedded resources (select=*,other(*)): many-to-one as an object, one-to-many as an array, found
// through the foreign keys of schema public and built as correlated subqueries, so RLS applies to them too.
import type { Catalog, ForeignKey, Relation } from './catalog.ts';
import type { Params } from './build-sql.ts';
import {
  buildFilter,
  buildLimit,
  buildOrder,
  buildProjection,
  quoteIdent,
  SchemaMissError,
  type Source,
} from './build-sql.ts';
import { RestError } from './errors.ts';
import type { EmbedItem, Filter, OrderTerm, SelectItem } from './parse-query.ts';

/** Filters, order and range given for one embedded resource (other.col=eq.1, other.order=..., other.limit=...). */
export interface EmbedQuery {
  filters: Filter[];
  order: OrderTerm[];
  limit: number | undefined;
  offset: number | undefined;
}

interface Relationship {
  fk: ForeignKey;
  rel: Relation;
  /** [child column, parent column] pairs of the join. */
  pairs: Array<[string, string]>;
  toOne: boolean;
}

function findRelationships(catalog: Catalog, parent: Relation, item: EmbedItem): Relationship[] {
  const found: Relationship[] = [];
  for (const fk of catalog.foreignKeys) {
    const byColumn = fk.columns.length === 1 && fk.columns[0] === item.name;
    if (fk.table === parent.name && (fk.refTable === item.name || byColumn)) {
      const rel = catalog.relations.get(fk.refTable);
      if (rel)
        found.push({ fk, rel, pairs: fk.refColumns.map((c, i) => [c, fk.columns[i] ?? '']), toOne: true });
    }
    if (fk.refTable === parent.name && fk.table === item.name) {
      const rel = catalog.relations.get(fk.table);
      if (rel)
        found.push({ fk, rel, pairs: fk.columns.map((c, i) => [c, fk.refColumns[i] ?? '']), toOne: false });
    }
  }
  const hint = item.hint;
  if (hint === undefined) return found;
  return found.filter((r) => r.fk.name === hint || r.fk.columns.join(',') === hint || r.rel.name === hint);
}

function getRelationship(catalog: Catalog, parent: Relation, item: EmbedItem): Relationship {
  const found = findRelationships(catalog, parent, item);
  if (found.length === 0) {
    throw new SchemaMissError(
      400,
      'PGRST200',
      `Could not find a relationship between '${parent.name}' and '${item.name}' in the schema cache`,
      { hint: 'Embedding follows foreign keys between tables of schema public.' },
    );
  }
  if (found.length > 1) {
    throw new RestError(
      300,
      'PGRST201',
      `Could not embed because more than one relationship was found for '${parent.name}' and '${item.name}'`,
      {
        details: found
          .map((r) => `${r.fk.name} (${r.fk.table}(${r.fk.columns.join(', ')}) -> ${r.fk.refTable})`)
          .join('; '),
        hint: `Try changing '${item.name}' to one of: ${found.map((r) => `${item.name}!${r.fk.name}`).join(', ')}`,
      },
    );
  }
  return found[0] as Relationship;
}

/** Builds projections with embedded resources and checks that every embedded filter found its resource. */
export class Embedder {
  private readonly used = new Set<string>();

  constructor(
    private readonly catalog: Catalog,
    private readonly embedded: Map<string, EmbedQuery>,
    private readonly params: Params,
  ) {}

  /** The projection of `items` over `source` (rows of `rel`), and the conditions its !inner embeds put on those rows. */
  project(
    rel: Relation,
    source: Source,
    items: SelectItem[],
    path = '',
  ): { projection: string; conditions: string[] } {
    const conditions: string[] = [];
    const projection = buildProjection(source, items, this.params, (item, parent) => {
      const { expression, name } = this.embed(rel, parent, item, path);
      if (item.inner)
        conditions.push(name.toOne ? `${expression} is not null` : `json_array_length(${expression}) > 0`);
      return `${expression} as ${quoteIdent(name.key)}`;
    });
    return { projection, conditions };
  }

  /** Throws when a filter names an embedded resource the select does not have (PostgREST's PGRST108). */
  checkAllUsed(): void {
    for (const path of this.embedded.keys()) {
      if (!this.used.has(path)) {
        throw new RestError(400, 'PGRST108', `'${path}' is not an embedded resource in this request`, {
          hint: `Add ${path}(...) to select= to filter, order or limit it.`,
        });
      }
    }
  }

  private embed(parentRel: Relation, parent: Source, item: EmbedItem, parentPath: string) {
    const r = getRelationship(this.catalog, parentRel, item);
    const key = item.alias ?? item.name;
    const path = parentPath ? `${parentPath}.${key}` : key;
    this.used.add(path);
    const q = this.embedded.get(path);
    const child: Source = {
      name: r.rel.name,
      columns: new Set(r.rel.columnOrder),
      alias: this.params.nextAlias(),
    };
    const { projection, conditions } = this.project(r.rel, child, item.select, path);
    const where = [
      ...r.pairs.map(([c, p]) => `${child.alias}.${quoteIdent(c)} = ${parent.alias}.${quoteIdent(p)}`),
      ...(q?.filters ?? []).map((f) => `(${buildFilter(child, f, this.params)})`),
      ...conditions,
    ].join(' and ');
    const from = `${quoteIdent('public')}.${quoteIdent(r.rel.name)} ${child.alias}`;
    let expression: string;
    if (r.toOne) {
      expression = `(select to_json(pgrst_e) from (select ${projection} from ${from} where ${where} limit 1) pgrst_e)`;
    } else {
      const order = q ? buildOrder(child, q.order, this.params) : '';
      const limit = q ? buildLimit(q.limit, q.offset, this.params) : '';
      expression = `(select coalesce(json_agg(pgrst_e), '[]') from (select ${projection} from ${from} where ${where}${order}${limit}) pgrst_e)`;
    }
    return { expression, name: { key, toOne: r.toOne } };
  }
}
