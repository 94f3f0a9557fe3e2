// Applies the platform SQL (bootstrap, then each part's own tables), supabase/migrations/*.sql in name order,
// then platform SQL that needs the app's tables (sync change capture). Each migration is applied once and
// recorded; platform SQL is idempotent and runs at every boot.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const MIGRATIONS_DIR = path.join(root, 'supabase/migrations');

/**
 * Platform SQL: the tables of the self-contained server's own parts, idempotent, re-applied at every boot and
 * never applied on Supabase. bootstrap.sql (what Supabase provides) comes first; then each part that has
 * tables of its own declares them in server/<part>/schema.sql, whose first line says when it runs
 * ("-- platform-sql: before migrations" or "after migrations"), parts in name order. No list to keep here.
 */
export interface PlatformSql {
  /** Path from the repository root, e.g. server/auth/schema.sql. */
  rel: string;
  stage: 'before' | 'after';
  sql: string;
}

const STAGE_LINE = /^-- platform-sql: (before|after) migrations\r?\n/;

export function listPlatformSql(): PlatformSql[] {
  const bootstrap = 'server/db/bootstrap.sql';
  const found: PlatformSql[] = [
    { rel: bootstrap, stage: 'before', sql: fs.readFileSync(path.join(root, bootstrap), 'utf8') },
  ];
  const serverDir = path.join(root, 'server');
  for (const part of fs.readdirSync(serverDir).sort()) {
    const file = path.join(serverDir, part, 'schema.sql');
    if (!fs.existsSync(file)) continue;
    const sql = fs.readFileSync(file, 'utf8');
    const stage = STAGE_LINE.exec(sql)?.[1];
    if (stage !== 'before' && stage !== 'after')
      throw new Error(`server/${part}/schema.sql must begin with "-- platform-sql: before|after migrations"`);
    found.push({ rel: `server/${part}/schema.sql`, stage, sql });
  }
  return found;
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
  const platform = listPlatformSql();
  for (const p of platform) if (p.stage === 'before') await db.exec(p.sql);
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
  for (const p of platform) if (p.stage === 'after') await db.exec(p.sql);
  // Server processes already serving this database reload their REST schema cache (decision 0118).
  if (applied.length > 0) await db.exec(`notify pgrst, 'reload schema'`);
  return { applied };
}
