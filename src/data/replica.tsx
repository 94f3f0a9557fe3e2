// The member's local replica: opened after sign-in, synced and uploaded through the connector, cleared at sign-out.
// Feature code reads with useQuery and writes with useReplica().execute(...); see src/data/README.md.
import type { PowerSyncDatabase, QueryParam } from '@powersync/web';
import { PowerSyncContext, usePowerSync, useStatus } from '@powersync/react';
import { useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useAuth } from '../app/auth-context.tsx';
import { PageLoading } from '../app/loading-screen.tsx';
import { markStart } from '../app/pwa-start-marks.ts';
import { toast } from '../ui/toast-store.ts';
import { getAppConfig } from './app-config.ts';
import { POWERSYNC_RETRY_DELAY_MS, SupabaseConnector, type UploadRefusal } from './connector.ts';
import { PENDING_IDS_SQL } from './pending.ts';
import { tablesOfQuery } from './query-tables.ts';
import { AppSchema, type SyncedTableName } from './schema.ts';
import { getSupabase } from './supabase-client.ts';

export { usePowerSync, useStatus };
export type { PowerSyncDatabase, UploadRefusal };

const DB_FILENAME = 'heartsync.db';
/** Which member the local file belongs to, so a different member never sees a leftover replica. */
const OWNER_KEY = 'heartsync.replicaOwner';
/**
 * Diagnostics: with this key set to "1" in local storage, the open replica is also window.heartsyncReplica,
 * so end-to-end tests (and a developer's console) can read what the device holds. Same-origin scripts can
 * already read this origin's storage, so this grants nothing new.
 */
const EXPOSE_KEY = 'heartsync.exposeReplica';
/** The service worker's runtime cache of photos (vite.config.ts). */
const PHOTO_CACHE = 'heartsync-photos';

interface OpenReplica {
  userId: string;
  db: Promise<PowerSyncDatabase>;
}

/** The longest the sync connection waits for the first screen's reads. */
const CONNECT_AT_LATEST_MS = 1500;

let current: OpenReplica | undefined;
let clearing: Promise<void> | undefined;
const refusalListeners = new Set<(refusal: UploadRefusal) => void>();

/** Calls `listener` for each write the server refused (after the toast), e.g. to offer an upgrade; returns the unsubscribe. */
export function onUploadRefused(listener: (refusal: UploadRefusal) => void): () => void {
  refusalListeners.add(listener);
  return () => {
    refusalListeners.delete(listener);
  };
}

function readOwner(): string | null {
  try {
    return localStorage.getItem(OWNER_KEY);
  } catch {
    return null;
  }
}

function writeOwner(userId: string | null): void {
  try {
    if (userId) localStorage.setItem(OWNER_KEY, userId);
    else localStorage.removeItem(OWNER_KEY);
  } catch {
    /* storage unavailable: the owner check is skipped */
  }
}

async function getEndpoint(): Promise<string> {
  const config = await getAppConfig();
  return config.powersyncUrl ?? config.supabaseUrl;
}

async function createReplica(userId: string): Promise<PowerSyncDatabase> {
  markStart('hs:replica-open-start');
  // Loaded here, not at the top of the app, so public pages never download the sync engine or its WASM.
  const { PowerSyncDatabase, SyncStreamConnectionMethod } = await import('@powersync/web');
  markStart('hs:replica-engine-loaded');
  const db = new PowerSyncDatabase({ schema: AppSchema, database: { dbFilename: DB_FILENAME } });
  await db.init();
  markStart('hs:replica-open');
  const owner = readOwner();
  if (owner !== userId) {
    // Another member's replica, or one of unknown owner (a sign-out that never reached this tab): wipe it first.
    await db.disconnectAndClear({ clearLocal: true });
    writeOwner(userId);
  }
  try {
    if (localStorage.getItem(EXPOSE_KEY) === '1') Object.assign(window, { heartsyncReplica: db });
  } catch {
    /* storage unavailable */
  }
  const connector = new SupabaseConnector({
    getSupabase,
    getEndpoint,
    onRefused: (refusal) => {
      toast({ title: refusal.title, description: refusal.description, variant: 'destructive' });
      for (const listener of refusalListeners) listener(refusal);
    },
  });
  // Not awaited: connecting needs the network, reading the replica does not. Started once the screen's first
  // reads have answered (or after CONNECT_AT_LATEST_MS): connecting starts the sync worker and checks the
  // upload queue through the same database worker, and would make the first screen wait behind it.
  void firstReadsAnswered(CONNECT_AT_LATEST_MS)
    .then(() =>
      db.connect(connector, {
        connectionMethod: SyncStreamConnectionMethod.HTTP,
        retryDelayMs: POWERSYNC_RETRY_DELAY_MS,
        crudUploadThrottleMs: 50,
      }),
    )
    .catch((e: unknown) => console.warn('[replica] connect failed; it retries by itself', e));
  return db;
}

/** Watched queries of this page still waiting for their first result; the sync connection waits for none. */
let firstReadsPending = 0;
let firstReadsStarted = false;
const firstReadsWaiters = new Set<() => void>();

function firstReadAnswered(): void {
  firstReadsPending--;
  if (firstReadsPending > 0) return;
  // After the commit of the render those results cause, not in the middle of it.
  setTimeout(() => {
    if (firstReadsPending > 0) return;
    for (const wake of firstReadsWaiters) wake();
    firstReadsWaiters.clear();
  }, 0);
}

/** Resolves once the queries of the first screen have all answered (at least one ran), or after `latestMs`. */
function firstReadsAnswered(latestMs: number): Promise<void> {
  if (firstReadsStarted && firstReadsPending === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      firstReadsWaiters.delete(done);
      resolve();
    };
    const timer = setTimeout(done, latestMs);
    firstReadsWaiters.add(done);
  });
}

/** The replica of a signed-in member, opened once per page and shared by every component. */
export function openReplica(userId: string): Promise<PowerSyncDatabase> {
  if (current?.userId === userId) return current.db;
  const previous = current;
  const db = (async () => {
    await clearing?.catch(() => undefined);
    if (previous) await (await previous.db.catch(() => undefined))?.close().catch(() => undefined);
    return createReplica(userId);
  })();
  current = { userId, db };
  db.catch(() => {
    if (current?.db === db) current = undefined;
  });
  return db;
}

/**
 * Disconnects and deletes every local row (synced, queued and local-only), e.g. at sign-out (src/app's auth
 * events call it). Opens the file to clear it if this page never did; the owner mark goes only once it is empty.
 */
export function clearReplica(): Promise<void> {
  clearing ??= (async () => {
    const open = current;
    current = undefined;
    // Other members' photos cached by the service worker go too: the next person on the device sees nothing.
    await globalThis.caches?.delete(PHOTO_CACHE).catch(() => undefined);
    let db = await open?.db.catch(() => undefined);
    if (!db && readOwner() === null) return;
    if (!db) {
      const { PowerSyncDatabase } = await import('@powersync/web');
      db = new PowerSyncDatabase({ schema: AppSchema, database: { dbFilename: DB_FILENAME } });
      await db.init();
    }
    await db.disconnectAndClear({ clearLocal: true });
    writeOwner(null);
    await db.close().catch(() => undefined);
  })().finally(() => {
    clearing = undefined;
  });
  return clearing;
}

/** Provides the replica to the member area; shows the page loader while the local database opens. */
export function ReplicaProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const userId = user?.id;
  const [state, setState] = useState<{ userId: string; db: PowerSyncDatabase } | { error: string } | null>(
    null,
  );

  useEffect(() => {
    if (!userId) return;
    let cancelled = false;
    openReplica(userId).then(
      (db) => !cancelled && setState({ userId, db }),
      (e: unknown) => !cancelled && setState({ error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      cancelled = true;
    };
  }, [userId]);

  if (state && 'error' in state)
    return (
      <div role="alert" className="p-6 text-center">
        This device could not open its local copy of your data ({state.error}). Please reload the page.
      </div>
    );
  if (!state || state.userId !== userId) return <PageLoading />;
  return <PowerSyncContext value={state.db}>{children}</PowerSyncContext>;
}

/** The member's PowerSyncDatabase; throws outside ReplicaProvider. */
export function useReplica(): PowerSyncDatabase {
  const db = useContext(PowerSyncContext) as PowerSyncDatabase | null;
  if (!db) throw new Error('useReplica outside ReplicaProvider');
  return db;
}

const KNOWN_TABLES: ReadonlySet<string> = new Set(AppSchema.tables.map((t) => t.name));

export interface ReplicaQueryOptions {
  /** The tables whose changes re-run the query; by default the replica tables named in the SQL. */
  tables?: readonly string[];
  /** The shortest time between two runs, ms (the library's default otherwise). */
  throttleMs?: number;
}

export interface ReplicaQueryResult<T> {
  data: T[];
  /** True until the first result. */
  isLoading: boolean;
  /** True while the query re-runs with new SQL or parameters (the previous rows are still in data). */
  isFetching: boolean;
  error: Error | undefined;
}

interface QueryState<T> {
  key: string;
  db: PowerSyncDatabase;
  data: T[];
  isLoading: boolean;
  error: Error | undefined;
}

/**
 * Rows of `sql` from the replica, re-read whenever one of its tables changes. Like @powersync/react's useQuery
 * (which it replaces), but the tables come from the SQL text (query-tables.ts): the library would otherwise
 * run an EXPLAIN and a schema lookup before each query's first run, two more round trips on the database
 * worker per query when a screen starts.
 */
export function useQuery<T>(
  sql: string,
  parameters: readonly QueryParam[] = [],
  options: ReplicaQueryOptions = {},
): ReplicaQueryResult<T> {
  const db = useContext(PowerSyncContext) as PowerSyncDatabase | null;
  const paramsKey = JSON.stringify(parameters);
  const tables = options.tables ?? tablesOfQuery(sql, KNOWN_TABLES);
  const tablesKey = tables ? tables.join(',') : '';
  const { throttleMs } = options;
  const key = `${sql}\u0000${paramsKey}\u0000${tablesKey}\u0000${throttleMs ?? ''}`;
  const [state, setState] = useState<QueryState<T>>();

  useEffect(() => {
    if (!db) return;
    firstReadsStarted = true;
    firstReadsPending++;
    let waiting = true;
    const answered = () => {
      if (!waiting) return;
      waiting = false;
      firstReadAnswered();
    };
    const query = db.query<T>({ sql, parameters: JSON.parse(paramsKey) as QueryParam[] }).watch({
      triggerOnTables: tablesKey ? tablesKey.split(',') : undefined,
      reportFetching: false,
      throttleMs,
    });
    const dispose = query.registerListener({
      onStateChange: (next) => {
        if (next.isLoading && !next.error) return;
        answered();
        setState({ key, db, data: [...next.data], isLoading: false, error: next.error ?? undefined });
      },
    });
    return () => {
      answered();
      dispose();
      void query.close();
    };
    // `key` holds sql, parameters, tables and throttle.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [db, key]);

  if (!db)
    return {
      data: [],
      isLoading: false,
      isFetching: false,
      error: new Error('useQuery outside ReplicaProvider'),
    };
  if (!state || state.db !== db) return { data: [], isLoading: true, isFetching: true, error: undefined };
  return { data: state.data, isLoading: state.isLoading, isFetching: state.key !== key, error: state.error };
}

/**
 * Ids of the rows of `table` with a local write not yet uploaded (in ps_crud), e.g. to show a
 * message sent offline as pending until the server has it.
 */
export function usePendingIds(table: SyncedTableName): ReadonlySet<string> {
  const { data } = useQuery<{ id: string }>(PENDING_IDS_SQL, [table], { tables: ['ps_crud'] });
  return useMemo(() => new Set(data.map((r) => r.id)), [data]);
}
