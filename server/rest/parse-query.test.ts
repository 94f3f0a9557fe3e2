import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RestError } from './errors.ts';
import {
  parseFilterParam,
  parseList,
  parseOrder,
  parsePrefer,
  parseRangeHeader,
  parseSelect,
} from './parse-query.ts';
import { buildFilter, buildProjection, Params, type Source } from './build-sql.ts';

const source: Source = { name: 'notes', columns: new Set(['id', 'title', 'meta']), alias: 'pgrst_t' };

describe('PostgREST query parsing', () => {
  it('parses select items with aliases, casts, JSON paths and embeds', () => {
    expect(parseSelect('id,name:title,score::text,meta->a->>b,author:users!fk!inner(id)')).toEqual([
      { kind: 'field', field: { column: 'id', path: [] }, alias: undefined, cast: undefined },
      { kind: 'field', field: { column: 'title', path: [] }, alias: 'name', cast: undefined },
      { kind: 'field', field: { column: 'score', path: [] }, alias: undefined, cast: 'text' },
      {
        kind: 'field',
        field: {
          column: 'meta',
          path: [
            { arrow: '->', key: 'a' },
            { arrow: '->>', key: 'b' },
          ],
        },
        alias: undefined,
        cast: undefined,
      },
      {
        kind: 'embed',
        name: 'users',
        alias: 'author',
        hint: 'fk',
        inner: true,
        select: [{ kind: 'field', field: { column: 'id', path: [] }, alias: undefined, cast: undefined }],
      },
    ]);
  });

  it('parses nested logic trees with quoted values and lists', () => {
    const f = parseFilterParam('or', '(a.eq.1,and(b.in.("x,y",z),c.not.is.null),d.like."(*)")');
    expect(f).toMatchObject({
      kind: 'logic',
      operator: 'or',
      children: [
        { kind: 'condition', operator: 'eq', value: '1' },
        {
          kind: 'logic',
          operator: 'and',
          children: [
            { operator: 'in', value: '("x,y",z)' },
            { operator: 'is', negate: true, value: 'null' },
          ],
        },
        { operator: 'like', value: '(*)' },
      ],
    });
    expect(parseList('("x,y",z, "a\\"b")')).toEqual(['x,y', 'z', 'a"b']);
  });

  it('parses order terms, Prefer and Range', () => {
    expect(parseOrder('a.desc.nullslast,b')).toEqual([
      { field: { column: 'a', path: [] }, descending: true, nulls: 'last' },
      { field: { column: 'b', path: [] }, descending: false, nulls: undefined },
    ]);
    expect(parsePrefer(['count=exact, return=representation', 'resolution=merge-duplicates'])).toMatchObject({
      count: 'exact',
      return: 'representation',
      resolution: 'merge-duplicates',
    });
    expect(parseRangeHeader('5-9')).toEqual({ offset: 5, limit: 5 });
    expect(() => parseRangeHeader('9-5')).toThrow(RestError);
  });

  it('puts every value in a bind parameter, never in the SQL text', () => {
    const params = new Params();
    const evil = `x'; drop table notes; --`;
    const sql = buildFilter(
      source,
      parseFilterParam('or', `(title.eq.${evil},meta->>k.like.*${evil})`),
      params,
    );
    expect(sql).not.toContain('drop');
    expect(params.values).toEqual([evil, 'k', `%${evil}`]);
    expect(() => buildProjection(source, parseSelect('title::text; drop'), new Params())).toThrow(RestError);
    expect(() => buildFilter(source, parseFilterParam('nope', 'eq.1'), new Params())).toThrow(RestError);
  });

  it('any input is parsed or refused with a RestError, never another exception', () => {
    const text = fc.string({ maxLength: 40, unit: fc.constantFrom(...'abc.,()"\\:!*->{}= _1'.split('')) });
    fc.assert(
      fc.property(text, text, (key, value) => {
        for (const run of [
          () => buildFilter(source, parseFilterParam(key, value), new Params()),
          () => buildProjection(source, parseSelect(value), new Params(), () => 'null'),
          () => parseOrder(value),
        ]) {
          try {
            run();
          } catch (e) {
            expect(e).toBeInstanceOf(RestError);
          }
        }
      }),
      { numRuns: 2000 },
    );
  });
});
