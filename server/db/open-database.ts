// Picks the database from configuration: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR.
import path from 'node:path';
import type { Database } from './database.ts';
import { openPglite } from './open-pglite.ts';
import { openPostgres } from './open-postgres.ts';

export async function openDatabase(
  options: { databaseUrl?: string | undefined; dataDir: string },
  onError: (e: Error) => void = () => {},
): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, { onError });
  return openPglite(path.resolve(options.dataDir));
}
