// The embedded database's stand-in for autovacuum: it picks the tables autovacuum's thresholds pick, vacuums
// or analyzes exactly those, and leaves PostgreSQL (which has its own autovacuum) alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.ts';
import { openPglite } from './open-pglite.ts';
import { getDueMaintenance, maintainEmbeddedDatabase } from './pglite-maintenance.ts';

let db: Database;
const logged: { level: string; msg: string; obj: object }[] = [];
const log = {
  info: (obj: object, msg: string) => logged.push({ level: 'info', msg, obj }),
  warn: (obj: object, msg: string) => logged.push({ level: 'warn', msg, obj }),
};

interface TableStats {
  n_dead_tup: string;
  n_mod_since_analyze: string;
  vacuum_count: string;
  analyze_count: string;
}

/** Table counters reach the statistics views at most once a second unless a flush is asked for. */
async function flushStats(): Promise<void> {
  await db.query('select pg_stat_force_next_flush()');
  await db.query('select 1');
}

async function getStats(table: string): Promise<TableStats> {
  const { rows } = await db.query<TableStats>(
    `select n_dead_tup, n_mod_since_analyze, vacuum_count, analyze_count
       from pg_stat_user_tables where schemaname = 'm' and relname = $1`,
    [table],
  );
  return rows[0]!;
}

// Opening PGlite (WebAssembly and initdb) takes seconds on a loaded 2-core machine.
beforeAll(async () => {
  db = await openPglite();
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe('maintainEmbeddedDatabase', () => {
  it('vacuums a table with many dead rows, analyzes a changed one and leaves a quiet one alone', async () => {
    await db.exec(`
      create schema m;
      create table m.queue (id bigserial primary key, body text);
      create table m."Grown" (id int primary key);
      create table m.quiet (id int primary key);
      insert into m.queue (body) select 'x' from generate_series(1, 1000);
      delete from m.queue where id <= 600;
      insert into m."Grown" select generate_series(1, 100);
      insert into m.quiet select generate_series(1, 10);
    `);
    await flushStats();
    // Autovacuum's defaults: 600 dead > 50 + 20% of an unknown (0) size; 100 changed > 50 (analyze) but
    // 100 inserted < 1000 (no insert vacuum); 10 rows are under both.
    const due = (await getDueMaintenance(db)).filter((d) => d.table.startsWith('m.'));
    expect(due).toEqual([
      { table: 'm.queue', action: 'vacuum' },
      { table: 'm."Grown"', action: 'analyze' },
    ]);

    const steps = await maintainEmbeddedDatabase(db, log);
    await flushStats();
    expect(steps.filter((s) => s.table.startsWith('m.')).map((s) => [s.table, s.action])).toEqual([
      ['m.queue', 'vacuum'],
      ['m."Grown"', 'analyze'],
    ]);
    expect(await getStats('queue')).toMatchObject({ n_dead_tup: '0', vacuum_count: '1', analyze_count: '1' });
    expect(await getStats('Grown')).toMatchObject({
      n_mod_since_analyze: '0',
      vacuum_count: '0',
      analyze_count: '1',
    });
    expect(await getStats('quiet')).toMatchObject({ vacuum_count: '0', analyze_count: '0' });
    expect(logged.at(-1)).toMatchObject({ level: 'info', msg: 'embedded database: vacuumed and analyzed' });

    // The queue's size is known now (400 rows): 60 more dead rows are under both 50 + 20% of 400 (vacuum) and
    // 50 + 10% of 400 (analyze), so nothing is due until the table changes by more.
    await db.exec(`delete from m.queue where id <= 660`);
    await flushStats();
    expect((await getDueMaintenance(db)).filter((d) => d.table.startsWith('m.'))).toEqual([]);
    expect((await maintainEmbeddedDatabase(db, log)).filter((s) => s.table.startsWith('m.'))).toEqual([]);
  });

  it('does nothing on PostgreSQL, which vacuums by itself', async () => {
    const postgres = {
      kind: 'postgres',
      query: () => Promise.reject(new Error('no statement may run')),
    } as unknown as Database;
    expect(await maintainEmbeddedDatabase(postgres, log)).toEqual([]);
  });
});
