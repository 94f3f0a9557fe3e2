// Removes every stored object a member owns, in all buckets (files and rows); used by the deletion job.
import type { Database } from '../db/database.ts';
import { FileStore } from './file-store.ts';

/**
 * Files go first, rows after: if a file cannot be removed this throws with the rows still there, so the
 * next job run finds and retries them instead of leaving an orphan file nobody knows about.
 */
export async function deleteUserStoredFiles(db: Database, dataDir: string, userId: string): Promise<number> {
  const store = new FileStore(dataDir);
  const r = await db.query<{ id: string; bucket_id: string; version: string | null }>(
    'select id, bucket_id, version from storage.objects where owner = $1 or owner_id = $2',
    [userId, userId],
  );
  for (const row of r.rows) if (row.version) await store.remove(row.bucket_id, row.version);
  if (r.rows.length > 0)
    await db.query('delete from storage.objects where id = any($1::uuid[])', [r.rows.map((row) => row.id)]);
  return r.rows.length;
}
