// Statements that must run at the same time (PostgreSQL only: PGlite has a single connection): connections of
// their own to a test database, and a member's write held open a moment so two transactions overlap.
import pg from 'pg';

/** `count` connections to the PostgreSQL test database at `url`; end them in afterAll. */
export async function openConnections(url: string | undefined, count: number): Promise<pg.Client[]> {
  if (url === undefined) throw new Error('Overlapping connections need a PostgreSQL test database');
  const clients: pg.Client[] = [];
  for (let i = 0; i < count; i++) {
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => {});
    await c.connect();
    clients.push(c);
  }
  return clients;
}

/** Runs `sql` as the member in its own transaction on `client`, holding it open `holdMs` before COMMIT. */
export async function writeAsMemberHeld(
  client: pg.Client,
  memberId: string,
  sql: string,
  params: unknown[],
  holdMs: number,
): Promise<void> {
  await client.query('begin');
  try {
    await client.query(
      `select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`,
      [JSON.stringify({ role: 'authenticated', sub: memberId, aud: 'authenticated' })],
    );
    await client.query(sql, params);
    await client.query('select pg_sleep($1)', [holdMs / 1000]);
    await client.query('commit');
  } catch (e) {
    await client.query('rollback');
    throw e;
  }
}
