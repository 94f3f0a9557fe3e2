// Autovacuum's work for the embedded database. PGlite runs PostgreSQL in single-user mode, where the
// autovacuum launcher never starts (decision 0080): without this pass no table is ever vacuumed or
// analyzed, so every updated or deleted row (the sync change queue empties itself on every write) stays
// in the files for good, and the planner never gets statistics. The pass picks tables by autovacuum's own
// thresholds as configured (the defaults: 50 rows + 20% of the table dead, 1000 + 20% inserted since the
// last vacuum, 50 + 10% changed since the last analyze) and runs VACUUM (ANALYZE) or ANALYZE on each, one
// at a time. PostgreSQL over a connection runs its own autovacuum and never calls this.
import type { Database } from './database.ts';

export interface MaintenanceStep {
  /** schema.table, quoted where needed. */
  table: string;
  action: 'vacuum' | 'analyze';
  ms: number;
}

/** Tables past a threshold, the most changed first; the same arithmetic as autovacuum's. */
const DUE_TABLES_SQL = `
  with t as (
    select format('%I.%I', s.schemaname, s.relname) as name, s.n_dead_tup, s.n_ins_since_vacuum,
      s.n_mod_since_analyze, greatest(c.reltuples, 0) as tuples
    from pg_stat_user_tables s
    join pg_class c on c.oid = s.relid
    where c.relkind = 'r' and c.relpersistence = 'p'
  ),
  due as (
    select t.name, t.n_dead_tup + t.n_mod_since_analyze as changed,
      t.n_dead_tup > current_setting('autovacuum_vacuum_threshold')::float8
          + current_setting('autovacuum_vacuum_scale_factor')::float8 * t.tuples
        or t.n_ins_since_vacuum > current_setting('autovacuum_vacuum_insert_threshold')::float8
          + current_setting('autovacuum_vacuum_insert_scale_factor')::float8 * t.tuples as needs_vacuum,
      t.n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
          + current_setting('autovacuum_analyze_scale_factor')::float8 * t.tuples as needs_analyze
    from t
  )
  select name, case when needs_vacuum then 'vacuum' else 'analyze' end as action
  from due
  where needs_vacuum or needs_analyze
  order by changed desc, name
`;

/** The tables autovacuum would work on now, and what it would do to each. */
export async function getDueMaintenance(
  db: Database,
): Promise<{ table: string; action: 'vacuum' | 'analyze' }[]> {
  const { rows } = await db.query<{ name: string; action: 'vacuum' | 'analyze' }>(DUE_TABLES_SQL);
  return rows.map((r) => ({ table: r.name, action: r.action }));
}

/**
 * Vacuums or analyzes each due table of an embedded database, one statement at a time (each holds PGlite's
 * one connection while it runs; requests wait between them, not behind the whole pass). Does nothing on
 * PostgreSQL. A table that fails is logged and skipped; the next pass tries it again.
 */
export async function maintainEmbeddedDatabase(
  db: Database,
  log: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void },
): Promise<MaintenanceStep[]> {
  if (db.kind !== 'pglite') return [];
  const steps: MaintenanceStep[] = [];
  for (const due of await getDueMaintenance(db)) {
    const started = performance.now();
    try {
      // VACUUM may not run inside a transaction block: one statement on its own.
      await db.query(due.action === 'vacuum' ? `vacuum (analyze) ${due.table}` : `analyze ${due.table}`);
    } catch (err) {
      log.warn({ err, table: due.table }, `embedded database: ${due.action} failed`);
      continue;
    }
    steps.push({ ...due, ms: Math.round(performance.now() - started) });
  }
  if (steps.length > 0) log.info({ steps }, 'embedded database: vacuumed and analyzed');
  return steps;
}
