// The member's local replica: opened after sign-in, synced and uploaded through the connector, cleared at sign-out.
// Feature code reads with useQuery and writes with useReplica().execute(...); see src/data/README.md.
// The sync engine is a static import: this module is itself loaded only for the member area (lazily, or by the
// entry script for a returning member), so the engine's chunk loads in parallel with this one, not after it.
import { PowerSyncDatabase, SyncStreamConnectionMethod, WASQLiteVFS, type QueryParam } from '@powersync/web';
import { PowerSyncContext, usePowerSync, useStatus } from '@powersync/react';
import { useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useAuth } from '../session/auth-context.tsx';
import { markStart } from '../session/pwa-start-marks.ts';
import { toast } from '../ui/toast-store.ts';
import { getAppConfig } from './app-config.ts';
import { CatchUpTracker } from './catch-up.ts';
import { whileOnline } from './network.ts';
import { POWERSYNC_RETRY_DELAY_MS, SupabaseConnector, type UploadRefusal } from './connector.ts';
import { PENDING_IDS_SQL } from './pending.ts';
import { replicaHoldsData } from './replica-contents.ts';
import { clearScreenSnapshots } from './screen-snapshots.ts';
import { listenShared } from './shared-watches.ts';
import { REPLICA_OWNER_KEY } from './storage-keys.ts';
import { tablesOfQuery } from './query-tables.ts';
import { AppSchema, type SyncedTableName } from './schema.ts';
import { getSupabase } from './supabase-client.ts';

export { usePowerSync, useStatus };
export type { PowerSyncDatabase, UploadRefusal };

const DB_FILENAME = 'heartsync.db';
/**
 * Diagnostics: with this key set to "1" in local storage, the open replica is also window.heartsyncReplica,
 * so end-to-end tests (and a developer's console) can read what the device holds. Same-origin scripts can
 * already read this origin's storage, so this grants nothing new.
 */
const EXPOSE_KEY = 'heartsync.exposeReplica';
/**
 * Set while the replica holds only writes a member made before a sign-out they did not ask for (decision 0114):
 * how many. Told to that member at their next sign-in; gone with the file when another member signs in.
 */
const HELD_WRITES_KEY = 'heartsync.replicaHeldWrites';
/** The service worker's runtime cache of photos (vite.config.ts). */
const PHOTO_CACHE = 'heartsync-photos';

/**
 * Where the replica file lives (decision 0034). OPFS, the origin private file system, through wa-sqlite's
 * OPFSCoopSyncVFS: a dedicated database worker per tab running the synchronous WASM build (half the size of
 * the asyncify build the IndexedDB VFS needs); the file opens and answers the first reads faster.
 * Tabs share the file (the VFS hands its access handle from tab to tab) and the sync (a shared worker
 * borrows one tab's database connection). IndexedDB where OPFS is missing (e.g. Firefox's private windows).
 */
type ReplicaStore = 'opfs' | 'indexeddb';

interface OpenReplica {
  userId: string;
  db: Promise<PowerSyncDatabase>;
}

/** The longest the sync connection waits for the first screen's reads. */
const CONNECT_AT_LATEST_MS = 1500;

let current: OpenReplica | undefined;
/** The store of each database openDatabase returned. */
const storeOf = new WeakMap<PowerSyncDatabase, ReplicaStore>();
/** The stop of each open replica's network watch (its connect and disconnect as the network comes and goes). */
const networkWatchOf = new WeakMap<PowerSyncDatabase, () => void>();
/** Whether each open replica has caught up with the server since its connection opened (catch-up.ts). */
const catchUpOf = new WeakMap<PowerSyncDatabase, CatchUpTracker>();
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
    return localStorage.getItem(REPLICA_OWNER_KEY);
  } catch {
    return null;
  }
}

function writeOwner(userId: string | null): void {
  try {
    if (userId) localStorage.setItem(REPLICA_OWNER_KEY, userId);
    else localStorage.removeItem(REPLICA_OWNER_KEY);
  } catch {
    /* storage unavailable: the owner check is skipped */
  }
}

async function getEndpoint(): Promise<string> {
  const config = await getAppConfig();
  return config.powersyncUrl ?? config.supabaseUrl;
}

/** Whether this page may use OPFS: the API exists and answers (Firefox's private windows refuse it). */
async function opfsUsable(): Promise<boolean> {
  try {
    if (typeof navigator.storage?.getDirectory !== 'function') return false;
    await navigator.storage.getDirectory();
    return true;
  } catch {
    return false;
  }
}

/** Whether IndexedDB holds the replica of the IndexedDB VFS (the VFS names its database after the file). */
async function indexedDbReplicaExists(): Promise<boolean> {
  try {
    if (typeof indexedDB.databases === 'function')
      return (await indexedDB.databases()).some((d) => d.name === DB_FILENAME);
    // Older browsers: open it, and abort the creation of a database that was not there.
    return await new Promise<boolean>((resolve) => {
      const request = indexedDB.open(DB_FILENAME);
      request.onupgradeneeded = () => request.transaction?.abort();
      request.onsuccess = () => {
        request.result.close();
        resolve(true);
      };
      request.onerror = () => resolve(false);
    });
  } catch {
    return false;
  }
}

/**
 * Deletes the replica of the IndexedDB VFS. Not awaited by callers: a tab still running an older version of the
 * app keeps it open, and the deletion then waits for that tab (the next start checks again).
 */
function deleteIndexedDbReplica(): void {
  try {
    indexedDB.deleteDatabase(DB_FILENAME);
  } catch {
    /* IndexedDB unavailable: nothing stored there */
  }
}

/**
 * `tabOnly`: the IndexedDB database in a dedicated worker of this tab (and the sync in the tab) instead of the
 * shared worker, so that closing it ends the worker and its IndexedDB connection at once: the shared worker
 * would keep the connection while the page lives, and block the deletion of the database.
 */
function newDatabase(store: ReplicaStore, tabOnly = false): PowerSyncDatabase {
  return new PowerSyncDatabase({
    schema: AppSchema,
    database: {
      dbFilename: DB_FILENAME,
      vfs: store === 'opfs' ? WASQLiteVFS.OPFSCoopSyncVFS : WASQLiteVFS.IDBBatchAtomicVFS,
      ...(tabOnly ? { enableMultiTabs: false } : {}),
    },
  });
}

/**
 * The store of this device's replica, opened. With OPFS, a replica of the IndexedDB era is deleted and the
 * member's data syncs again into the OPFS file, unless it still holds this member's unsent writes: then it
 * stays in use until they are uploaded (the check runs at each start). The checks come first: opening the
 * OPFS file in parallel with them measured slower (bench/offline-start, decision 0034).
 */
async function openDatabase(userId: string | null): Promise<{ db: PowerSyncDatabase; store: ReplicaStore }> {
  const [opfs, legacy] = await Promise.all([opfsUsable(), indexedDbReplicaExists()]);
  markStart('hs:replica-store-checked');
  if (opfs && legacy && userId !== null && readOwner() === userId) {
    // Until its writes are uploaded, this tab alone uses the old database (other tabs open their own worker).
    const old = newDatabase('indexeddb', true);
    // The asyncify WASM is cached only once fetched (vite.config.ts): offline before that, the old file waits.
    const unsent = await old
      .init()
      .then(() => old.getAll('select 1 from ps_crud limit 1'))
      .catch(() => undefined);
    if (unsent && unsent.length > 0) {
      storeOf.set(old, 'indexeddb');
      return { db: old, store: 'indexeddb' };
    }
    await old.close().catch(() => undefined);
    if (unsent) deleteIndexedDbReplica();
  } else if (opfs && legacy) deleteIndexedDbReplica();
  const store: ReplicaStore = opfs ? 'opfs' : 'indexeddb';
  const db = newDatabase(store);
  await db.init();
  storeOf.set(db, store);
  return { db, store };
}

async function createReplica(userId: string): Promise<PowerSyncDatabase> {
  markStart('hs:replica-open-start');
  const { db } = await openDatabase(userId);
  markStart('hs:replica-open');
  const owner = readOwner();
  const held = takeHeldWritesMark();
  if (owner !== userId) {
    // Another member's replica, or one of unknown owner (a sign-out that never reached this tab): wipe it first.
    // A file just created holds nothing to wipe: a new device's first screen skips the wipe's round trips.
    clearScreenSnapshots();
    if (await replicaHoldsData(db).catch(() => true)) await db.disconnectAndClear({ clearLocal: true });
    writeOwner(userId);
  } else if (held > 0) {
    // Uploaded once the connection opens, like any queued write.
    const what = held === 1 ? 'One change you made' : `${held} changes you made`;
    toast({
      title: 'Your unsent changes are kept',
      description: `${what} before you were signed out ${held === 1 ? 'is' : 'are'} being sent now.`,
    });
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
  // Offline means no request (issue 21): the connection is closed while the device has no network and opened
  // again when it returns, instead of the sync engine retrying into the void.
  const connect = () =>
    void db
      .connect(connector, {
        connectionMethod: SyncStreamConnectionMethod.HTTP,
        retryDelayMs: POWERSYNC_RETRY_DELAY_MS,
        crudUploadThrottleMs: 50,
      })
      .catch((e: unknown) => console.warn('[replica] connect failed; it retries by itself', e));
  const disconnect = () =>
    void db.disconnect().catch((e: unknown) => console.warn('[replica] disconnect failed', e));
  void firstReadsAnswered(CONNECT_AT_LATEST_MS).then(() => {
    if (networkWatchOf.has(db)) networkWatchOf.set(db, whileOnline(connect, disconnect));
  });
  networkWatchOf.set(db, () => undefined);
  catchUpOf.set(db, new CatchUpTracker(db));
  return db;
}

/** Stops following the network (and the sync status) for a replica about to be closed or cleared. */
function stopNetworkWatch(db: PowerSyncDatabase | undefined): void {
  if (!db) return;
  networkWatchOf.get(db)?.();
  networkWatchOf.delete(db);
  catchUpOf.get(db)?.dispose();
  catchUpOf.delete(db);
}

/**
 * Calls `listener` each time the replica has caught up with the server (a checkpoint applied since its sync
 * connection opened), at once when it already has; returns the unsubscribe.
 */
export function onReplicaCaughtUp(db: PowerSyncDatabase, listener: () => void): () => void {
  return catchUpOf.get(db)?.subscribe(listener) ?? (() => undefined);
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
    const before = previous ? await previous.db.catch(() => undefined) : undefined;
    stopNetworkWatch(before);
    await before?.close().catch(() => undefined);
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
 * With `keepUnsentWritesOf` (a sign-out that member did not ask for, decision 0114), the upload queue of that
 * member's replica stays, in the same transaction as the clear: every synced and local-only row goes, and so does
 * everything of other members; the file keeps the member as owner until they sign in again (and upload it) or
 * another member signs in (and the file is wiped).
 */
export function clearReplica(options: { keepUnsentWritesOf?: string | null } = {}): Promise<void> {
  clearing ??= (async () => {
    const open = current;
    current = undefined;
    // The screens' copies of replica rows go first, synchronously: nothing of them outlives the sign-out.
    clearScreenSnapshots();
    // Other members' photos cached by the service worker go too: the next person on the device sees nothing.
    await globalThis.caches?.delete(PHOTO_CACHE).catch(() => undefined);
    const db = await open?.db.catch(() => undefined);
    stopNetworkWatch(db);
    if (!db && readOwner() === null) return;
    // Only the file's own member's queue is kept.
    const keepFor = options.keepUnsentWritesOf === readOwner() ? options.keepUnsentWritesOf : null;
    // The file this page has open, else the one a start would open (deleting a replica of the IndexedDB era).
    const opened = db ? { db, store: storeOf.get(db) } : await openDatabase(keepFor);
    let kept = 0;
    if (keepFor) kept = await clearKeepingQueue(opened.db);
    else await opened.db.disconnectAndClear({ clearLocal: true });
    await opened.db.close().catch(() => undefined);
    // A page still on the IndexedDB replica (its unsent writes) may have an OPFS file from an earlier start.
    if (opened.store === 'indexeddb' && (await opfsUsable())) {
      const other = await openDatabase(null);
      await other.db.disconnectAndClear({ clearLocal: true });
      await other.db.close().catch(() => undefined);
    }
    writeHeldWritesMark(kept);
    writeOwner(kept > 0 ? keepFor : null);
  })().finally(() => {
    clearing = undefined;
  });
  return clearing;
}

/** Clears the replica but its upload queue, in one transaction; how many queued writes it kept. */
async function clearKeepingQueue(db: PowerSyncDatabase): Promise<number> {
  await db.disconnect();
  return db.writeTransaction(async (tx) => {
    const queued = await tx.getAll<{ tx_id: number | null; data: string }>(
      'select tx_id, data from ps_crud order by id',
    );
    // What disconnectAndClear({ clearLocal: true }) runs; ps_tx (the next transaction's number) is not cleared.
    await tx.execute('select powersync_clear(1)');
    for (const row of queued)
      await tx.execute('insert into ps_crud (tx_id, data) values (?, ?)', [row.tx_id, row.data]);
    return queued.length;
  });
}

function writeHeldWritesMark(count: number): void {
  try {
    if (count > 0) localStorage.setItem(HELD_WRITES_KEY, String(count));
    else localStorage.removeItem(HELD_WRITES_KEY);
  } catch {
    /* storage unavailable: the writes upload all the same, untold */
  }
}

/** How many writes a sign-out kept for the next sign-in (0 when none), and the mark goes. */
function takeHeldWritesMark(): number {
  try {
    const count = Number(localStorage.getItem(HELD_WRITES_KEY) ?? 0);
    localStorage.removeItem(HELD_WRITES_KEY);
    return Number.isInteger(count) && count > 0 ? count : 0;
  } catch {
    return 0;
  }
}

/**
 * Provides the replica to the member area once its local file is open (null before: `useReplicaOpening()`).
 * What needs the replica goes inside `WhenReplicaOpen`; a page painted from its screen snapshot renders at
 * once (decision 0093), and the member layout shows the page loader for the others meanwhile.
 */
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
  const db = state && state.userId === userId ? state.db : null;
  // The library types its context as never empty, yet it starts as null (its default): null until open.
  return <PowerSyncContext value={db as PowerSyncDatabase}>{children}</PowerSyncContext>;
}

/**
 * True while the replica is still opening (or outside ReplicaProvider): there is nothing to read or write yet.
 * A page painted before it (its screen snapshot) reads this; its writes wait with `openReplica(userId)`.
 */
export function useReplicaOpening(): boolean {
  return useContext(PowerSyncContext) === null;
}

/**
 * `children` once the replica is open, `opening` (nothing by default) until then. The same element in both
 * (the member layout's page outlet) keeps its state when the replica opens: React sees one component.
 */
export function WhenReplicaOpen({ children, opening = null }: { children: ReactNode; opening?: ReactNode }) {
  return useReplicaOpening() ? opening : children;
}

/**
 * True until this device's replica has finished its first sync: on a new device (or the first sign-in here)
 * it is empty for the seconds the first download takes, and an empty answer then means "not here yet", not
 * "none". A screen shows its loading state rather than "No matches yet" while this holds and it has nothing.
 * A replica that synced in an earlier session knows it as it opens (the engine reads it from the file), so
 * this is false from its first render on. Also true while the replica is still opening.
 */
export function useFirstSyncPending(): boolean {
  return useFirstSyncWatch(true);
}

/** useFirstSyncPending when `watching`; otherwise false, with no status listener (useQuery's option). */
function useFirstSyncWatch(watching: boolean): boolean {
  const db = useContext(PowerSyncContext) as PowerSyncDatabase | null;
  const [synced, setSynced] = useState<{ db: PowerSyncDatabase; synced: boolean }>();
  useEffect(() => {
    if (!db || !watching) return;
    // The status changes many times a second while data flows: a page re-renders only when this answer does.
    const follow = (synced: boolean) =>
      setSynced((was) => (was?.db === db && was.synced === synced ? was : { db, synced }));
    follow(db.currentStatus.hasSynced === true);
    return db.registerListener({ statusChanged: (status) => follow(status.hasSynced === true) });
  }, [db, watching]);
  if (!watching) return false;
  if (!db) return true;
  // Before the effect has run, the database's own status answers (no render shows a stale one).
  const known = synced?.db === db ? synced.synced : db.currentStatus.hasSynced === true;
  return !known;
}

/**
 * Whether the replica's sync is connected to the server; false while the replica opens. Unlike `useStatus`, it
 * may be used by a page painted before the replica has opened, and re-renders only when the answer changes.
 */
export function useSyncConnected(): boolean {
  const db = useContext(PowerSyncContext) as PowerSyncDatabase | null;
  const [state, setState] = useState<{ db: PowerSyncDatabase; connected: boolean }>();
  useEffect(() => {
    if (!db) return;
    const follow = (connected: boolean) =>
      setState((was) => (was?.db === db && was.connected === connected ? was : { db, connected }));
    follow(db.currentStatus.connected);
    return db.registerListener({ statusChanged: (status) => follow(status.connected) });
  }, [db]);
  if (!db) return false;
  return state?.db === db ? state.connected : db.currentStatus.connected;
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
  /**
   * An empty answer before this device's first sync is "not here yet" (useFirstSyncPending): isLoading stays
   * true until rows arrive or the first sync lands. For a screen whose empty state says the member has none.
   */
  emptyMeansLoading?: boolean;
}

export interface ReplicaQueryResult<T> {
  data: T[];
  /** True until the first result (with emptyMeansLoading, also while it is empty before the first sync). */
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
  const emptyMeansLoading = options.emptyMeansLoading === true;
  const firstSync = useFirstSyncWatch(emptyMeansLoading);
  const key = `${sql}\u0000${paramsKey}\u0000${tablesKey}\u0000${throttleMs ?? ''}`;
  const [state, setState] = useState<QueryState<T>>();
  // The engine reports the first sync a moment before a watched query has read again (its table notices come
  // through the database worker, then the watch's throttle): an empty answer from before it is read once more
  // before it counts as "none", or the screen would flash "No matches yet" just before the matches.
  const [sawFirstSync, setSawFirstSync] = useState(false);
  if (firstSync && !sawFirstSync) setSawFirstSync(true);
  const [confirmedKey, setConfirmedKey] = useState<string>();
  const unconfirmed =
    emptyMeansLoading &&
    sawFirstSync &&
    !firstSync &&
    state?.db === db &&
    state.key === key &&
    state.data.length === 0 &&
    confirmedKey !== key;
  useEffect(() => {
    if (!unconfirmed || !db) return;
    let live = true;
    const settle = (rows: T[]) => {
      if (!live) return;
      if (rows.length > 0)
        setState((was) =>
          was?.db === db && was.key === key && was.data.length === 0 ? { ...was, data: rows } : was,
        );
      setConfirmedKey(key);
    };
    db.getAll<T>(sql, JSON.parse(paramsKey) as QueryParam[]).then(settle, () => settle([]));
    return () => {
      live = false;
    };
    // `key` holds sql and parameters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [unconfirmed, db, key]);

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
    // Components asking the same question share one watched query (shared-watches.ts).
    const leave = listenShared<T>(
      db,
      key,
      () =>
        db.query<T>({ sql, parameters: JSON.parse(paramsKey) as QueryParam[] }).watch({
          triggerOnTables: tablesKey ? tablesKey.split(',') : undefined,
          reportFetching: false,
          throttleMs,
        }),
      (answer) => {
        answered();
        // Its own copy, as before the sharing: a component may sort its rows in place.
        setState({ key, db, data: [...answer.data], isLoading: false, error: answer.error });
      },
    );
    return () => {
      answered();
      leave();
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
  const isLoading = state.isLoading || (state.data.length === 0 && (firstSync || unconfirmed));
  return { data: state.data, isLoading, isFetching: state.key !== key, error: state.error };
}

/**
 * Ids of the rows of `table` with a local write not yet uploaded (in ps_crud), e.g. to show a
 * message sent offline as pending until the server has it.
 */
export function usePendingIds(table: SyncedTableName): ReadonlySet<string> {
  const { data } = useQuery<{ id: string }>(PENDING_IDS_SQL, [table], { tables: ['ps_crud'] });
  return useMemo(() => new Set(data.map((r) => r.id)), [data]);
}
