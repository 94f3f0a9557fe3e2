import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../server/db/database.ts';
import { listMigrations, migrate } from '../../server/db/migrate.ts';

/** A bare PGlite behind the Database interface, so migrate() runs exactly as at first boot. */
function wrap(raw: PGlite): Database {
  const toQueryable = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async (text, params = []) => {
      const r = await q.query(text, params);
      return { rows: r.rows as never[], rowCount: r.affectedRows ?? r.rows.length };
    },
    exec: async (sql) => {
      await q.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...toQueryable(raw),
    transaction: (fn) => raw.transaction((tx) => fn(toQueryable(tx))),
    listen: async () => async () => {},
    ping: async () => {},
    close: () => raw.close(),
  };
}

describe('migrations', () => {
  it('apply in order to a fresh PGlite, each once (the time is printed, not asserted)', async () => {
    const raw = await PGlite.create();
    try {
      // Server processes already serving the database hear of new migrations (decision 0118).
      const heard: string[] = [];
      await raw.listen('pgrst', (payload) => heard.push(payload));
      const started = performance.now();
      const { applied } = await migrate(wrap(raw));
      const elapsed = performance.now() - started;
      expect(applied).toEqual(listMigrations().map((m) => m.name));
      console.log(`migrations applied to a fresh PGlite in ${Math.round(elapsed)} ms`);
      expect(heard).toEqual(['reload schema']);
      // Nothing new to apply: nothing to announce.
      expect((await migrate(wrap(raw))).applied).toEqual([]);
      expect(heard).toEqual(['reload schema']);
    } finally {
      await raw.close();
    }
  });
});
