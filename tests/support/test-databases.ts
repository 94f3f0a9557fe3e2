// Fresh migrated databases for tests: PGlite always, PostgreSQL too when TEST_DATABASE_URL is set.
// Under CI=true a missing TEST_DATABASE_URL fails the run instead of silently skipping PostgreSQL.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { checkTransactionOptions, ONE_STATEMENT_CLOSED } from '../../server/db/database.ts';
import type { Database, Queryable } from '../../server/db/database.ts';
import { migrate, listMigrations, listPlatformSql } from '../../server/db/migrate.ts';
import { openPglite } from '../../server/db/open-pglite.ts';
import { openPostgres } from '../../server/db/open-postgres.ts';

export type DbKind = 'pglite' | 'postgres';

export interface TestDatabase extends Database {
  /** Connection string of the PostgreSQL test database (postgres kind only). */
  url?: string;
  /** Closes and, for PostgreSQL, drops the database. */
  destroy(): Promise<void>;
}

const isCI = ['1', 'true'].includes((process.env['CI'] ?? '').toLowerCase());

/** The database kinds this run covers. */
export function getDatabaseKinds(): DbKind[] {
  if (process.env['TEST_DATABASE_URL']) return ['pglite', 'postgres'];
  if (isCI) throw new Error('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL tier must run in CI.');
  return ['pglite'];
}

const root = path.resolve(import.meta.dirname, '../..');
const cacheDir = path.join(root, 'node_modules/.cache/heartsync-tests');

function getSchemaHash(): string {
  const h = crypto.createHash('sha256');
  for (const p of listPlatformSql()) h.update(p.rel).update(p.sql);
  for (const m of listMigrations()) h.update(m.name).update(m.sql);
  return h.digest('hex').slice(0, 16);
}

/** A migrated PGlite booted from the cached snapshot of a migrated data folder. */
async function createPgliteDatabase(): Promise<TestDatabase> {
  const snapshot = await ensurePgliteSnapshot();
  const db = await openPglite(undefined, { loadDataDir: new Blob([fs.readFileSync(snapshot)]) });
  return { ...db, destroy: () => db.close() };
}

const snapshotBuilds = new Map<string, Promise<string>>();
/**
 * Builds the PGlite snapshot once per schema version, so later test databases boot without running
 * migrations; returns its path. Keyed by the SQL's hash, computed once per call so a file edited
 * meanwhile cannot make the reader look for a different snapshot than the one built.
 */
async function ensurePgliteSnapshot(): Promise<string> {
  const snapshot = path.join(cacheDir, `pglite-${getSchemaHash()}.tar.gz`);
  if (fs.existsSync(snapshot)) return snapshot;
  let build = snapshotBuilds.get(snapshot);
  if (!build) {
    build = (async () => {
      const { PGlite } = await import('@electric-sql/pglite');
      const raw = await PGlite.create();
      try {
        await migrate(wrapRaw(raw));
        const blob = await raw.dumpDataDir('gzip');
        fs.mkdirSync(cacheDir, { recursive: true });
        const tmp = `${snapshot}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
        fs.writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
        fs.renameSync(tmp, snapshot);
      } finally {
        await raw.close();
      }
      return snapshot;
    })();
    snapshotBuilds.set(snapshot, build);
  }
  return build;
}

function wrapRaw(raw: PGlite): Database {
  const q: Queryable = {
    query: async (text, params = []) => {
      const r = await raw.query(text, params);
      return { rows: r.rows as never[], rowCount: r.affectedRows ?? r.rows.length };
    },
    exec: async (sql) => {
      await raw.exec(sql);
    },
  };
  return {
    kind: 'pglite',
    ...q,
    transaction: (fn, options = {}) =>
      raw.transaction(async (tx) => {
        checkTransactionOptions(options);
        if (options.readOnly) await tx.exec('set transaction read only');
        for (const s of options.setup ?? []) await tx.query(s.text, s.params);
        let statements = 0;
        return fn({
          query: async (text, params = []) => {
            if (options.oneStatement && statements++ > 0) throw new Error(ONE_STATEMENT_CLOSED);
            const r = await tx.query(text, params);
            return { rows: r.rows as never[], rowCount: r.affectedRows ?? r.rows.length };
          },
          exec: async (sql) => {
            await tx.exec(sql);
          },
        });
      }),
    listen: async () => async () => {},
    ping: async () => {},
    close: () => raw.close(),
  };
}

/** Held while a template is looked for and built, so parallel test files build it once (any database). */
const TEMPLATE_LOCK_KEY = 7_351_042_101;
const templateBuilds = new Map<string, Promise<string>>();

/** `baseUrl` (a PostgreSQL connection URL) pointed at the database `name` on the same server. */
export function getDatabaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The name of a migrated PostgreSQL database to copy test databases from, one per schema version (named by
 * the SQL's hash; built once, then kept for later runs). Copying it takes a fraction of running every
 * migration into each test database. Templates of other schema versions are dropped when a new one is
 * built; one in use at that moment (another checkout's run) stays, for a later build to drop.
 */
function ensurePostgresTemplate(baseUrl: string): Promise<string> {
  const name = `hs_template_${getSchemaHash()}`;
  let build = templateBuilds.get(name);
  if (!build) {
    build = (async () => {
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      try {
        await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
        const { rows } = await admin.query('select 1 from pg_database where datname = $1', [name]);
        if (rows.length > 0) return name;
        // Built under another name and renamed once complete: a run stopped midway leaves no half template.
        const building = `hs_building_${crypto.randomBytes(6).toString('hex')}`;
        await admin.query(`create database ${building}`);
        const db = await openPostgres(getDatabaseUrl(baseUrl, building), { max: 2 });
        try {
          await migrate(db);
        } finally {
          await db.close();
        }
        await admin.query(`alter database ${building} rename to ${name}`);
        const { rows: stale } = await admin.query<{ datname: string }>(
          `select datname from pg_database
            where (datname like 'hs\\_template\\_%' or datname like 'hs\\_building\\_%') and datname <> $1`,
          [name],
        );
        for (const { datname } of stale) {
          await admin.query(`drop database if exists ${pg.escapeIdentifier(datname)}`).catch(() => {});
        }
        return name;
      } finally {
        await admin.end();
      }
    })();
    templateBuilds.set(name, build);
    build.catch(() => templateBuilds.delete(name));
  }
  return build;
}

async function createPostgresDatabase(): Promise<TestDatabase> {
  const baseUrl = process.env['TEST_DATABASE_URL'];
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const template = await ensurePostgresTemplate(baseUrl);
  const name = `hs_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${template}`);
  } finally {
    await admin.end();
  }
  // A copy of the template is migrated already (the server's own start still runs migrate, as in production).
  const url = getDatabaseUrl(baseUrl, name);
  const db = await openPostgres(url, { max: 10 });
  return {
    ...db,
    url,
    async destroy() {
      await db.close();
      const a = new pg.Client({ connectionString: baseUrl });
      await a.connect();
      try {
        await a.query(`drop database if exists ${name} with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}

/** A fresh, migrated database of the given kind; call destroy() in afterAll. */
export async function createTestDatabase(kind: DbKind): Promise<TestDatabase> {
  return kind === 'postgres' ? createPostgresDatabase() : createPgliteDatabase();
}
