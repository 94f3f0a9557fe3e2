// Discovery's pool (0061) finds ages as a birthday range: get_birthday_range(min, max, today) must keep
// exactly the birthdays whose age by get_age's arithmetic (whole years of age(today, birthday)) lies
// between min and max, on every day, around every anniversary, across leap days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';

describe.each(getDatabaseKinds())('birthday range for an age range on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('get_age itself is the arithmetic the check below compares against', async () => {
    const r = await db.query<{ same: boolean }>(
      `select public.get_age(b) = extract(year from age(current_date, b))::int as same
       from (values (date '1990-02-28'), (date '2000-02-29'), (date '1970-12-31')) v(b)`,
    );
    expect(r.rows.map((x) => x.same)).toEqual([true, true, true]);
  });

  it('keeps exactly the birthdays whose age is in range, day by day across two leap years', async () => {
    // Every day of two winters holding a 29 February (and the non-leap years after them), each
    // age range, and birthdays three days either side of both ends of the range.
    const r = await db.query<{ total: string; mismatches: string; examples: unknown }>(`
      with days as (
        select d::date as today from generate_series(date '2023-12-01', date '2025-03-31', interval '1 day') d
        union all
        select d::date from generate_series(date '2027-12-01', date '2028-03-31', interval '1 day') d
      ),
      ranges (min_age, max_age) as (values (18, 18), (18, 120), (25, 45), (30, 31), (99, 120), (0, 17), (1, 1)),
      checks as (
        select dy.today, rg.min_age, rg.max_age, br.born_from, br.born_to, b.birthday
        from days dy
        cross join ranges rg
        cross join lateral public.get_birthday_range(rg.min_age, rg.max_age, dy.today) br
        cross join lateral (
          select (dy.today - make_interval(years => k))::date + o as birthday
          from unnest(array[rg.min_age, rg.max_age + 1]) k, generate_series(-3, 3) o
        ) b
        where b.birthday <= dy.today
      )
      select count(*) as total,
        count(*) filter (where (extract(year from age(today, birthday))::int between min_age and max_age)
          is distinct from (birthday between born_from and born_to)) as mismatches,
        (select jsonb_agg(to_jsonb(c)) from (select * from checks
          where (extract(year from age(today, birthday))::int between min_age and max_age)
            is distinct from (birthday between born_from and born_to) limit 5) c) as examples
      from checks
    `);
    const row = r.rows[0]!;
    expect(Number(row.total)).toBeGreaterThan(40_000);
    expect(row.examples).toBeNull();
    expect(Number(row.mismatches)).toBe(0);
  });

  it('ages no one can have give an empty range, and huge ranges no bound, never a date error', async () => {
    const range = (min: number, max: number) =>
      db
        .query<{ born_from: string; born_to: string }>(
          `select born_from::text, born_to::text from public.get_birthday_range($1, $2, date '2026-03-01')`,
          [min, max],
        )
        .then((x) => x.rows[0]!);
    expect(await range(2_000_000_000, 2_147_483_647)).toEqual({
      born_from: '-infinity',
      born_to: '-infinity',
    });
    expect(await range(-2_147_483_648, -2_000_000_000)).toEqual({
      born_from: 'infinity',
      born_to: 'infinity',
    });
    expect(await range(18, 2_147_483_647)).toEqual({ born_from: '-infinity', born_to: '2008-03-01' });
    expect(await range(-5, 20)).toEqual({ born_from: '2005-03-02', born_to: 'infinity' });
  });
});
