// Embedded PostgreSQL (PGlite) in a data folder, guarded by a lock file so only one process opens it.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, types } from '@electric-sql/pglite';
import type { Database, Queryable, QueryOptions, QueryResult } from './database.ts';
import { TYPE_OIDS } from './database.ts';
import { createPgliteQueryRunner, type PgliteQueryRunner } from './pglite-query.ts';

const parsers = {
  [TYPE_OIDS.int8]: (v: string) => v,
  [TYPE_OIDS.date]: (v: string) => v,
};

function wrap(runner: PgliteQueryRunner, q: { exec: PGlite['exec'] }): Queryable {
  return {
    async query<T>(
      text: string,
      params: unknown[] = [],
      options: QueryOptions = {},
    ): Promise<QueryResult<T>> {
      return runner.query<T>(text, params, false, options.name);
    },
    async exec(sql: string) {
      // Scripts are where DDL runs: a statement's parameter types may have changed.
      runner.forget();
      await q.exec(sql);
    },
  };
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the folder's lock or throws a clear error naming the process that holds it. */
export function takeDataDirLock(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, 'heartsync.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => {
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(fs.readFileSync(lockPath, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isProcessAlive(holder)) {
        throw new Error(
          `The data folder ${dir} is in use by another HeartSync process (pid ${holder}). Stop it first, or set DATA_DIR to another folder.`,
        );
      }
      fs.unlinkSync(lockPath); // stale lock from a process that died
    }
  }
  throw new Error(`Could not take the lock on ${dir}`);
}

/** Opens PGlite; `dir` undefined means in memory (tests). */
export async function openPglite(dir?: string, options: { loadDataDir?: Blob } = {}): Promise<Database> {
  const release = dir ? takeDataDirLock(dir) : () => {};
  let db: PGlite;
  try {
    db = await PGlite.create(dir ? path.join(dir, 'pglite') : undefined, {
      parsers,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
  } catch (e) {
    release();
    throw e;
  }
  const runner = createPgliteQueryRunner(db);
  const base = wrap(runner, db);
  return {
    kind: 'pglite',
    ...base,
    transaction: (fn, options) => runner.transaction(fn, options),
    async listen(channel, onNotify) {
      const unsub = await db.listen(channel, onNotify);
      return async () => unsub();
    },
    async ping() {
      await db.query('select 1');
    },
    async close() {
      try {
        await db.close();
      } finally {
        release();
      }
    },
  };
}

export { types as pgliteTypes };
