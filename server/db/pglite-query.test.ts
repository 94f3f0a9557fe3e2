// The one-exchange query path must answer exactly what PGlite's own query answers: same rows, same parsed
// values, same serialised parameters, same affected-row count, same errors.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TYPE_OIDS, type Database } from './database.ts';
import { openPglite } from './open-pglite.ts';
import { createPgliteQueryRunner } from './pglite-query.ts';

const parsers = {
  [TYPE_OIDS.int8]: (v: string) => v,
  [TYPE_OIDS.date]: (v: string) => v,
};

let db: PGlite;
/** The app's PGlite database (the runner inside), for the transaction tests; each uses tables of its own. */
let pg: Database;

// Opening a PGlite database (WebAssembly and initdb) takes seconds on a loaded 2-core machine: more than a
// unit test's default time limit, so both are opened once here, under a limit of their own.
beforeAll(async () => {
  pg = await openPglite();
  db = await PGlite.create({ parsers });
  await db.exec(`
    create table t (
      id int primary key, name text, born date, seen timestamptz, n bigint, score numeric, ok boolean,
      tags text[], ids uuid[], doc jsonb, raw json, pic bytea, at point
    );
    insert into t values
      (1, 'Ada', '1990-02-03', '2026-01-02T03:04:05.678Z', 9007199254740993, 1.50, true, '{a,"b c"}',
       '{00000000-0000-0000-0000-000000000001}', '{"k": [1, "x"]}', '{"r": 1}', '\\x00ff', '(1,2)'),
      (2, null, null, null, null, null, null, null, null, null, null, null, null);
  `);
}, 60_000);

afterAll(async () => {
  await db?.close();
  await pg?.close();
});

/** Runs the statement both ways, in the same state, and expects the same answer. */
async function expectSame(text: string, params: unknown[] = []) {
  const runner = createPgliteQueryRunner(db);
  const ours = await db.transaction(async (tx) => {
    const r = await runner.query(text, params, true);
    await tx.rollback();
    return r;
  });
  const theirs = await db.transaction(async (tx) => {
    const r = await tx.query(text, params);
    await tx.rollback();
    return r;
  });
  expect(ours.rows).toEqual(theirs.rows);
  expect(ours.rowCount).toBe(theirs.affectedRows);
  return ours;
}

describe('the one-exchange PGlite query', () => {
  it('parses every column type as PGlite does (int8 and date kept as text)', async () => {
    const r = await expectSame('select * from t order by id');
    expect(r.rows[0]).toMatchObject({
      n: '9007199254740993',
      born: '1990-02-03',
      tags: ['a', 'b c'],
      ok: true,
    });
    expect(r.rows[1]).toMatchObject({ name: null, tags: null });
    expect(r.rowCount).toBe(0);
  });

  it('serialises parameters by their type as PGlite does: json, arrays, dates, booleans, bytes, null', async () => {
    const at = new Date('2026-05-06T07:08:09.010Z');
    await expectSame(
      `insert into t (id, name, doc, raw, tags, ids, seen, ok, pic, n, born)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning *`,
      [
        3,
        'Zoë "quoted" \\ back',
        { nested: ['a', 1, null], s: 'x' },
        '{"already": "text"}',
        ['one', 'two words', 'quote"d', null],
        ['00000000-0000-0000-0000-000000000002'],
        at,
        false,
        new Uint8Array([0, 1, 254]),
        '12345678901234567',
        '2000-01-01',
      ],
    );
    await expectSame('select $1::jsonb as a, $2::text[] as b, $3::int as c, $4::text as d', [
      ['x', { y: 1 }],
      [],
      '42',
      undefined,
    ]);
  });

  it('counts affected rows as PGlite does, and runs statements without parameters', async () => {
    const r = await expectSame('update t set name = name || $1 where id <= $2', ['!', 2]);
    expect(r.rowCount).toBe(2);
    await expectSame('delete from t');
    await expectSame('select 1 as one');
    await expectSame('');
  });

  it('keeps a statement usable after an error and says which statement failed', async () => {
    const runner = createPgliteQueryRunner(db);
    await expect(
      runner.query('select * from t where id = $1', ['not a number'], false),
    ).rejects.toMatchObject({
      code: '22P02',
      query: 'select * from t where id = $1',
    });
    await expect(runner.query('selec 1', [], false)).rejects.toMatchObject({ code: '42601' });
    await expect(runner.query('select * from nowhere where id = $1', [1], false)).rejects.toMatchObject({
      code: '42P01',
    });
    expect((await runner.query<{ id: number }>('select id from t where id = $1', [1], false)).rows).toEqual([
      { id: 1 },
    ]);
  });

  it('learns new parameter types after forget() (DDL changed them)', async () => {
    const runner = createPgliteQueryRunner(db);
    await db.exec('create table u (v int)');
    await runner.query('insert into u (v) values ($1)', [1], false);
    await db.exec('alter table u alter column v type jsonb using to_jsonb(v)');
    runner.forget();
    await runner.query('insert into u (v) values ($1)', [{ k: 'v' }], false);
    expect((await runner.query('select v from u order by v::text', [], false)).rows).toEqual([
      { v: 1 },
      { v: { k: 'v' } },
    ]);
  });
});

describe('statements prepared under a name', () => {
  it('answer as unnamed ones, and are prepared again for another text or after forget()', async () => {
    const runner = createPgliteQueryRunner(db);
    const text = 'select id, name, $1::jsonb as doc from t where id = $2';
    const unnamed = await runner.query(text, [{ a: [1] }, 1], false);
    const named = await runner.query(text, [{ a: [1] }, 1], false, 'hs_test_named');
    expect(named.rows).toEqual(unnamed.rows);
    expect((await runner.query(text, [{ b: 2 }, 1], false, 'hs_test_named')).rows[0]).toMatchObject({
      doc: { b: 2 },
    });
    // Another text under the same name (a caller's mistake) answers for that text, not the old one.
    expect((await runner.query('select $1::int + 1 as n', [41], false, 'hs_test_named')).rows).toEqual([
      { n: 42 },
    ]);
    runner.forget();
    expect((await runner.query('select $1::int + 2 as n', [40], false, 'hs_test_named')).rows).toEqual([
      { n: 42 },
    ]);
  });
});

describe('transactions', () => {
  it('commit when fn resolves, roll back when it throws, refuse statements once closed', async () => {
    await pg.exec('create table tx_t (n int primary key)');
    const tx = await pg.transaction(async (t) => {
      await t.query('insert into tx_t values ($1)', [1]);
      await t.exec('insert into tx_t values (2); insert into tx_t values (3)');
      return t;
    });
    await expect(tx.query('select 1')).rejects.toThrow('Transaction is closed');
    await expect(tx.exec('select 1')).rejects.toThrow('Transaction is closed');
    await expect(
      pg.transaction(async (t) => {
        await t.query('insert into tx_t values ($1)', [4]);
        await t.exec('insert into tx_t values (5)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // A failed statement whose error was caught: COMMIT rolls back, and says so.
    await expect(
      pg.transaction(async (t) => {
        await t.query('insert into tx_t values ($1)', [6]);
        await t.query('insert into tx_t values ($1)', [1]).catch(() => undefined);
      }),
    ).rejects.toMatchObject({ code: '25P02', query: 'COMMIT' });
    // A statement that fails takes the transaction down with it, and the database stays usable.
    await expect(
      pg.transaction((t) => t.query('insert into tx_t values ($1), ($1)', [7])),
    ).rejects.toMatchObject({ code: '23505' });
    expect((await pg.query<{ n: number }>('select n from tx_t order by n')).rows).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
    ]);
  });
});

describe('openPglite', () => {
  it('runs statements in and out of transactions, one at a time, and refuses a closed transaction', async () => {
    await pg.exec('create table c (n int)');
    // Concurrent statements outside the transaction wait for it: they see its whole effect or none.
    const inside = pg.transaction(async (tx) => {
      await tx.query('insert into c values ($1)', [1]);
      await new Promise((r) => setTimeout(r, 20));
      await tx.query('insert into c values ($1)', [2]);
      return tx;
    });
    const outside = pg.query<{ n: number }>('select count(*)::int as n from c');
    const tx = await inside;
    expect((await outside).rows[0]?.n).toBe(2);
    await expect(tx.query('select 1')).rejects.toThrow('Transaction is closed');
    await expect(
      pg.transaction(async (t2) => {
        await t2.query('insert into c values ($1)', [3]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await pg.query<{ n: number }>('select count(*)::int as n from c')).rows[0]?.n).toBe(2);
  });
});
