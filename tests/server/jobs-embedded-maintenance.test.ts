// The scheduler does autovacuum's work on the embedded database, which never runs its own (decision 0080): a
// table with many dead rows is vacuumed and analyzed by the next pass of the jobs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';

describe('scheduled jobs on pglite', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('pglite', { JOB_INTERVAL_SECONDS: '1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('vacuums and analyzes a table past autovacuum’s thresholds within a few passes', async () => {
    await t.db.exec(`
      create table public.maintenance_probe (id bigserial primary key, body text);
      insert into public.maintenance_probe (body) select 'x' from generate_series(1, 2000);
      delete from public.maintenance_probe where id <= 1500;
    `);
    const read = async () =>
      (
        await t.db.query<{ n_dead_tup: string; vacuum_count: string; analyze_count: string }>(
          `select n_dead_tup, vacuum_count, analyze_count from pg_stat_user_tables
            where schemaname = 'public' and relname = 'maintenance_probe'`,
        )
      ).rows[0];
    await expect.poll(read, { timeout: 15_000, interval: 250 }).toMatchObject({
      n_dead_tup: '0',
      vacuum_count: '1',
      analyze_count: '1',
    });
  });
});
