// Applies the platform bootstrap, supabase/migrations/*.sql in name order, then platform SQL that
// needs the app's tables (sync change capture). Each migration is applied once and recorded.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MIGRATIONS_DIR = path.join(root, 'supabase/migrations');

/** Platform SQL files, each idempotent and re-applied at every boot. `before` run before migrations. */
const PLATFORM_BEFORE = ['server/db/bootstrap.sql', 'server/auth/schema.sql', 'server/storage/schema.sql'];
const PLATFORM_AFTER = ['server/sync/schema.sql'];

function readIfExists(rel: string): string | undefined {
  const p = path.join(root, rel);
  return fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : undefined;
}

export function listMigrations(dir = MIGRATIONS_DIR): { name: string; sql: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: fs.readFileSync(path.join(dir, name), 'utf8') }));
}

export interface MigrateResult {
  applied: string[];
}

/** Serialises the migrations of server processes started together on one PostgreSQL (decision 0052). */
const MIGRATE_LOCK_KEY = 7_351_042_002;

export async function migrate(
  db: Database,
  options: { log?: (msg: string) => void } = {},
): Promise<MigrateResult> {
  if (db.kind === 'pglite') return migrateNow(db, options);
  // One connection holds the lock while the migrations run on others: a second process waits here, then
  // finds every migration recorded and applies nothing.
  return db.transaction(async (lock) => {
    await lock.query('select pg_advisory_xact_lock($1)', [MIGRATE_LOCK_KEY]);
    return migrateNow(db, options);
  });
}

async function migrateNow(db: Database, options: { log?: (msg: string) => void }): Promise<MigrateResult> {
  const log = options.log ?? (() => {});
  for (const rel of PLATFORM_BEFORE) {
    const sql = readIfExists(rel);
    if (sql) await db.exec(sql);
  }
  await db.exec(`create schema if not exists heartsync_meta;
    create table if not exists heartsync_meta.migrations (
      name text primary key, checksum text not null, applied_at timestamptz not null default now());`);
  const done = new Map(
    (
      await db.query<{ name: string; checksum: string }>(
        'select name, checksum from heartsync_meta.migrations',
      )
    ).rows.map((r) => [r.name, r.checksum]),
  );
  const applied: string[] = [];
  for (const m of listMigrations()) {
    const checksum = crypto.createHash('sha256').update(m.sql).digest('hex');
    const previous = done.get(m.name);
    if (previous) {
      if (previous !== checksum) log(`migration ${m.name} changed after it was applied; not re-applied`);
      continue;
    }
    await db.transaction(async (tx) => {
      await tx.exec(m.sql);
      await tx.query('insert into heartsync_meta.migrations (name, checksum) values ($1, $2)', [
        m.name,
        checksum,
      ]);
    });
    applied.push(m.name);
    log(`applied migration ${m.name}`);
  }
  for (const rel of PLATFORM_AFTER) {
    const sql = readIfExists(rel);
    if (sql) await db.exec(sql);
  }
  return { applied };
}
