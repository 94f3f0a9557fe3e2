// Whether a replica file holds anything a member could have left: a new device's first start skips the wipe of
// a file that was just created (decision 0082).

/** The part of the replica's database this needs. */
export interface ReplicaReader {
  getAll<T>(sql: string, parameters?: unknown[]): Promise<T[]>;
}

/**
 * Tables the sync engine fills as it creates the file, whoever signs in: its applied migrations and its
 * transaction counter. Its key-value table starts with the device's client id alone, which a wipe keeps too.
 */
const ENGINE_BOOKKEEPING: ReadonlySet<string> = new Set(['ps_migration', 'ps_tx']);

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * True when any table of the file holds a row beyond the engine's own bookkeeping: synced rows, local-only
 * rows, queued uploads, bucket state. Every table is looked at, the engine's internal ones included, so a
 * table a later version adds counts as data until this is told otherwise (the wipe then runs, as before).
 */
export async function replicaHoldsData(db: ReplicaReader): Promise<boolean> {
  const tables = await db.getAll<{ name: string }>(
    "select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\'",
  );
  const probes = tables
    .filter((t) => !ENGINE_BOOKKEEPING.has(t.name))
    .map((t) =>
      t.name === 'ps_kv'
        ? "select 1 from ps_kv where key <> 'client_id'"
        : `select 1 from ${quoteName(t.name)}`,
    );
  if (probes.length === 0) return false;
  const [row] = await db.getAll<{ held: number }>(`select exists (${probes.join(' union all ')}) as held`);
  return row?.held === 1;
}
