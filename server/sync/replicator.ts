// Turns captured row changes into bucket operations: evaluates each row against the sync rules, appends
// PUT/REMOVE ops with increasing op ids and keeps bucket checksums and parameter lookups current.
import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Database, Queryable, TransactionOptions } from '../db/database.ts';
import type { StoredOp } from './bucket-storage.ts';
import {
  evaluateDataRow,
  evaluateParameterRow,
  tableSyncsParameters,
  type LoadedRules,
  type SourceTable,
} from './rules.ts';

const BATCH_SIZE = 500;
const SNAPSHOT_CHUNK = 1000;
const CHECKSUM_MODULUS = 4294967296;
/**
 * A batch with at most this many rows in all its arrays (ops, memberships, parameter rows and lookups) is
 * written by write_small_batch, with the plan made once per connection; its nested loops over the batch's
 * rows cost nothing at this size (decision 0113).
 */
export const SMALL_BATCH_ROWS = 64;
/** Serialises replicators of several server processes sharing one PostgreSQL database. */
const ADVISORY_LOCK_KEY = 7_351_042_001;
const LOCK_SQL = 'select pg_advisory_xact_lock($1)';

/** A bucket as one batch left it: its checksum and op count in full, and the ops the batch added. */
export interface BucketState {
  checksum: number;
  count: number;
  ops: StoredOp[];
}

/**
 * What one committed batch wrote, so waiting streams can tell whether it concerns them and, when they
 * followed every batch since their last checkpoint, send it without reading the database.
 */
export interface CommittedBatch {
  /** The head before and after the batch; undefined when the batch cannot be followed op by op. */
  base: string | undefined;
  head: string | undefined;
  buckets: Map<string, BucketState>;
  parametersChanged: boolean;
  /** The parameter lookups whose rows changed; undefined when unknown (then every stream re-resolves). */
  lookups?: Set<string>;
}

export interface ReplicatorEvents {
  committed: [CommittedBatch];
  /** Another process changed the database's sync rules: this one no longer replicates (decision 0088). */
  superseded: [];
}

interface RowEvent {
  table: SourceTable;
  key: string;
  row: Record<string, unknown> | null;
}

interface CurrentEntry {
  bucket: string;
  objectType: string;
  objectId: string;
  checksum: number;
  opId: string;
}

type Membership = [table: string, key: string, entry: CurrentEntry];

/** A batch worked out in memory, ready for its one write statement. */
interface BatchPlan {
  ops: NewOp[];
  sums: Map<string, { checksum: number; count: number; last: number }>;
  gone: Membership[];
  fresh: Membership[];
  relIds: Map<CurrentEntry, number>;
  paramIds: string[];
  freshLookups: { table: SourceTable; key: string; lookup: string; params: string }[];
}

interface NewOp {
  bucket: string;
  op: 'PUT' | 'REMOVE';
  objectType: string;
  objectId: string;
  data: string | null;
  checksum: number;
  /** Position in the batch, 1..n; the op id is the head before the batch plus this. */
  rel: number;
}

/** The per-op checksum: a 32-bit digest of what the op says, so a client can verify what it holds. */
export function getOpChecksum(op: string, objectType: string, objectId: string, data: string | null): number {
  return crypto
    .createHash('sha256')
    .update(`${op}\u0000${objectType}\u0000${objectId}\u0000${data ?? ''}`)
    .digest()
    .readUInt32LE(0);
}

/** JSON of a row's synced columns without its id (the op carries it); bigints stay exact. */
export function serializeRowData(data: Record<string, unknown>): string {
  const rest: Record<string, unknown> = {};
  let nested = false;
  for (const k of Object.keys(data)) {
    if (k === 'id') continue;
    const v = data[k];
    if (typeof v === 'bigint') rest[k] = getJsonBigint(v);
    else {
      rest[k] = v;
      nested ||= v !== null && typeof v === 'object';
    }
  }
  // A replacer makes JSON.stringify call back for every value (a first copy serialises millions of rows);
  // only a nested value, which sync rules do not produce, could still hold a bigint.
  return nested
    ? JSON.stringify(rest, (_k, v: unknown) => (typeof v === 'bigint' ? getJsonBigint(v) : v))
    : JSON.stringify(rest);
}

/** A bigint as JSON: a number when exact, otherwise its digits as a string. */
function getJsonBigint(v: bigint): number | string {
  return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
}

function getTableKey(table: SourceTable): string {
  return `${table.schema}.${table.name}`;
}

/** Each source row the events touch, once: its table and key joined by a NUL. */
function getRowIds(events: RowEvent[]): string[] {
  return [...new Set(events.map((e) => `${getTableKey(e.table)}\u0000${e.key}`))];
}

export class Replicator extends EventEmitter<ReplicatorEvents> {
  private readonly primaryKeys = new Map<string, string[]>();
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private stopListening: (() => Promise<void>) | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  /**
   * Whether a change may have been committed since the last claim was sent: set by each notification, cleared
   * just before a claim. A notification is sent after its transaction commits, so a claim sent after it
   * arrived sees that change; a notification arriving during a pass makes one more pass only when it came
   * after the pass's claim. PGlite also hands a commit's notification to the listener before the committing
   * statement returns, and its one connection runs nothing else during a claim, so on PGlite, with no
   * notification since, flush() has nothing to wait for (a write checkpoint then costs no empty pass).
   * PostgreSQL delivers notifications later: flush() asks the log instead (see there).
   */
  private notified = true;
  /** The running or last start(): flush() waits for it (its copies must come first). */
  private starting: Promise<void> | undefined;
  private isReady = false;
  private isSuperseded = false;
  /** The copy start() is making, for /health: the table, its rows copied so far, the tables after it. */
  private copy: { table: string; rows: number; tablesAfter: number } | undefined;
  private resolveReady: () => void = () => {};
  private readonly readyPromise = new Promise<void>((resolve) => {
    this.resolveReady = resolve;
  });

  constructor(
    private readonly db: Database,
    private readonly rules: LoadedRules,
    private readonly log: { info?(msg: string): void; warn(msg: string): void; error(msg: string): void },
  ) {
    super();
    this.setMaxListeners(0);
  }

  /** Attaches capture triggers, re-replicates after a rules change, snapshots new tables, then follows changes. */
  async start(options: { pollMs?: number } = {}): Promise<void> {
    this.starting = this.startNow(options);
    await this.starting;
    this.isReady = true;
    this.resolveReady();
  }

  /** Whether start() is done: every table copied, changes followed. Sync streams wait for it (decision 0088). */
  get ready(): boolean {
    return this.isReady;
  }

  /**
   * Whether another server process changed the database's sync rules to other ones (a deploy with a new
   * sync-rules.yaml while this process runs the old file): this process then neither replicates nor serves.
   */
  get superseded(): boolean {
    return this.isSuperseded;
  }

  private markSuperseded(): void {
    if (this.isSuperseded) return;
    this.isSuperseded = true;
    this.log.error(
      'sync: another server process changed the sync rules of this database; this process no longer replicates ' +
        'or serves sync. Restart it with the same sync-rules.yaml as the others.',
    );
    this.emit('superseded');
  }

  /** The table start() is copying now (undefined when none is). */
  get copying(): { table: string; rows: number; tablesAfter: number } | undefined {
    return this.copy && { ...this.copy };
  }

  /** Resolves once a start() is done (a failed one may be followed by another). */
  whenReady(): Promise<void> {
    return this.readyPromise;
  }

  private async startNow(options: { pollMs?: number }): Promise<void> {
    await this.prepare();
    await this.flushNow();
    this.throwIfStopped();
    this.stopListening = await this.db.listen('heartsync_sync_changes', () => {
      this.notified = true;
      // A running pass looks at the flag when its claim is done (the claim may already cover the change).
      if (this.running === undefined) this.report(this.pass());
    });
    // A change committed between the pass above and the listener is not lost: the next flush makes a pass.
    this.notified = true;
    // The poll covers lost notifications (a dropped LISTEN connection, a PostgreSQL restart). PGlite runs
    // in this process and hands every notification to the listener as the committing statement returns,
    // so there is nothing to lose and an idle poll would only queue for its one connection.
    if (this.db.kind === 'postgres') {
      this.pollTimer = setInterval(() => this.report(this.flushNow()), options.pollMs ?? 1000);
      this.pollTimer.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pollTimer) clearInterval(this.pollTimer);
    await this.stopListening?.().catch(() => {});
    await this.running?.catch(() => {});
    // A copy in progress gives up at its next chunk and rolls back: the next start copies that table again.
    await this.starting?.catch(() => {});
  }

  private report(work: Promise<void>): void {
    void work.catch((e: Error) => this.log.error(`sync replication failed: ${e.message}`));
  }

  /** Resolves once every change committed before the call is replicated (and start() is done). */
  async flush(): Promise<void> {
    if (this.starting !== undefined && !this.isReady) await this.starting;
    return this.flushNow();
  }

  private async flushNow(): Promise<void> {
    if (this.isSuperseded) return;
    if (this.db.kind === 'pglite') {
      // Nothing committed since the running (or last) pass claimed the log: nothing to wait for.
      if (!this.notified) return this.waitForPasses();
      return this.pass();
    }
    // PostgreSQL: this process's pass first, then the log. Empty, every change committed before the call was
    // claimed by a committed pass (a claim not yet committed leaves its rows visible, and then a pass here
    // waits for it on the lock); a pass of this process that committed meanwhile has announced its batch
    // once it ends. One read instead of an empty pass (four round trips), for write checkpoints and the poll.
    await this.waitForPasses();
    if (await this.hasPendingChanges()) return this.pass();
    return this.waitForPasses();
  }

  /** A replication pass, or when one runs, that pass and one more after it. */
  private async pass(): Promise<void> {
    if (this.running !== undefined) {
      this.again = true;
      return this.waitForPasses();
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.stopped && !this.isSuperseded && (await this.replicateBatch())) {
            /* keep going until the log is empty */
          }
        } while ((this.again || this.notified) && !this.stopped && !this.isSuperseded);
      } finally {
        this.running = undefined;
      }
    })();
    await this.running;
  }

  /** Resolves when no pass of this process runs (one may be followed by another). */
  private async waitForPasses(): Promise<void> {
    while (this.running !== undefined) await this.running.catch(() => {});
  }

  /** Whether the change log holds a row (claimed by no committed pass yet). */
  private async hasPendingChanges(): Promise<boolean> {
    const { rows } = await this.db.query<{ pending: boolean }>(
      'select exists (select 1 from heartsync_sync.changes) as pending',
      [],
      { name: 'hs_sync_pending' },
    );
    return rows[0]?.pending !== false;
  }

  private async prepare(): Promise<void> {
    for (const t of this.rules.tables) {
      const { rows } = await this.db.query<{ captured: boolean }>(
        'select heartsync_sync.capture_table($1, $2) as captured',
        [t.schema, t.name],
      );
      if (!rows[0]?.captured)
        this.log.warn(`sync rules reference ${t.schema}.${t.name}, which does not exist`);
    }
    const { rows } = await this.db.query<{ rules_hash: string | null }>(
      'select rules_hash from heartsync_sync.state',
    );
    if (rows[0]?.rules_hash !== this.rules.hash) {
      // New rules: bucket contents change, so the stored ops are rebuilt from the tables. Clients notice
      // by checksum and download their buckets again.
      await this.db.transaction(async (tx) => {
        await this.lock(tx);
        // Truncated, not deleted: a delete of every op took 1.8 s at 100k members and left the tables and
        // their indexes full of dead rows for the copy to insert beside (rebuild 58-64 s against 49 s for a
        // first copy); TRUNCATE gives the copy empty files (decision 0088).
        await tx.exec(`truncate heartsync_sync.ops, heartsync_sync.buckets, heartsync_sync.current_rows,
            heartsync_sync.parameter_lookups;
          update heartsync_sync.captured_tables set snapshot_done = false;`);
        await tx.query('update heartsync_sync.state set rules_hash = $1', [this.rules.hash]);
        // Processes still running the old rules make a pass on it and find them changed (they stop).
        await tx.query(`select pg_notify('heartsync_sync_changes', '')`);
      });
    }
    const tables = this.rules.tables;
    try {
      for (const [i, t] of tables.entries()) {
        this.copy = { table: getTableKey(t), rows: 0, tablesAfter: tables.length - i - 1 };
        const started = performance.now();
        const copied = await this.snapshotTable(t);
        const seconds = (performance.now() - started) / 1000;
        if (copied && seconds >= 1)
          this.log.info?.(
            `sync: copied ${this.copy.table} (${this.copy.rows} rows) in ${seconds.toFixed(1)} s`,
          );
      }
    } finally {
      this.copy = undefined;
    }
  }

  private throwIfStopped(): void {
    if (this.stopped) throw new Error('the sync service stopped before the copy ended');
  }

  /** The advisory lock as a transaction's opening statement (PostgreSQL only: PGlite has one connection). */
  private get lockSetup(): TransactionOptions {
    return this.db.kind === 'postgres'
      ? { setup: [{ text: LOCK_SQL, params: [ADVISORY_LOCK_KEY], name: 'hs_sync_lock' }] }
      : {};
  }

  private async lock(tx: Queryable): Promise<void> {
    if (this.db.kind === 'postgres') await tx.query(LOCK_SQL, [ADVISORY_LOCK_KEY]);
  }

  private async getPrimaryKey(tx: Queryable, table: SourceTable): Promise<string[]> {
    const key = getTableKey(table);
    let cols = this.primaryKeys.get(key);
    if (!cols) {
      const { rows } = await tx.query<{ attname: string }>(
        `select a.attname from pg_index i
           join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
          where i.indrelid = to_regclass(format('%I.%I', $1::text, $2::text)) and i.indisprimary
          order by array_position(i.indkey::int2[], a.attnum)`,
        [table.schema, table.name],
      );
      cols = rows.length > 0 ? rows.map((r) => r.attname) : ['id'];
      this.primaryKeys.set(key, cols);
    }
    return cols;
  }

  private getRowKey(cols: string[], row: Record<string, unknown>): string {
    return JSON.stringify(cols.map((c) => row[c] ?? null));
  }

  /**
   * Replicates the rows a table already holds, once (captured changes cover everything after). False when
   * there was nothing to do (copied before, or by another process meanwhile).
   */
  private async snapshotTable(table: SourceTable): Promise<boolean> {
    const { rows } = await this.db.query<{ snapshot_done: boolean }>(
      'select snapshot_done from heartsync_sync.captured_tables where source_schema = $1 and source_table = $2',
      [table.schema, table.name],
    );
    if (!rows[0] || rows[0].snapshot_done) return false;
    const batch = await this.db.transaction(async (tx) => {
      // Each statement sees what was committed before it (whatever the server's default isolation), so the
      // statements after the lock see what another process's copy or pass committed while this one waited.
      if (this.db.kind === 'postgres') await tx.exec('set transaction isolation level read committed');
      await this.lock(tx);
      const { rows: again } = await tx.query<{ snapshot_done: boolean; same_rules: boolean }>(
        `select c.snapshot_done, s.rules_hash is not distinct from $3 as same_rules
           from heartsync_sync.captured_tables c, heartsync_sync.state s
          where c.source_schema = $1 and c.source_table = $2`,
        [table.schema, table.name, this.rules.hash],
      );
      if (again[0] && !again[0].same_rules) {
        this.markSuperseded();
        throw new Error('the sync rules of this database were changed by another server process');
      }
      // Another process copied it while this one waited for the lock.
      if (again[0]?.snapshot_done !== false) return undefined;
      // Writers go on while the table is read (decision 0088). The captured changes are dropped first, then the
      // cursor takes its snapshot: a change committed in between is both copied and replayed after, which
      // ends in the same state (a replayed change is a later version of its row, replayed in order); a change
      // not yet committed when the cursor opens is replayed after. None is lost.
      await tx.query('delete from heartsync_sync.changes where source_schema = $1 and source_table = $2', [
        table.schema,
        table.name,
      ]);
      const cols = await this.getPrimaryKey(tx, table);
      // Several statements: streams re-read the database for it rather than follow it op by op.
      const touched: CommittedBatch = {
        base: undefined,
        head: undefined,
        buckets: new Map(),
        parametersChanged: false,
      };
      // Streams re-read a copy's buckets (it has no base), so their ops are not kept: at 1M members the
      // copy's ops held in memory were gigabytes.
      const merge = (b: CommittedBatch) => {
        for (const [bucket, { checksum, count }] of b.buckets)
          touched.buckets.set(bucket, { checksum, count, ops: [] });
        touched.parametersChanged ||= b.parametersChanged;
      };
      // A table with no stored memberships (its first copy, or the first after new rules) has nothing to
      // look up per chunk. On PostgreSQL its chunks are then pipelined: each chunk is evaluated while the
      // database writes the one before (the two took turns, each idle half the time). One statement at a
      // time on the connection: the next chunk is fetched before a write is sent.
      const { rows: stored } = await tx.query<{ stored: boolean }>(
        'select exists (select 1 from heartsync_sync.current_rows where source_table = $1) as stored',
        [getTableKey(table)],
      );
      const pipelined = stored[0]?.stored === false && this.db.kind === 'postgres';
      // One cursor over the table in key order: each chunk continues where the last stopped (an OFFSET would
      // read every earlier row again, quadratic in the table's size).
      await tx.exec(
        `declare heartsync_snapshot no scroll cursor for
           select to_jsonb(t) as r from ${quoteIdent(table.schema)}.${quoteIdent(table.name)} t
           order by ${cols.map((c) => `t.${quoteIdent(c)}`).join(', ')}`,
      );
      const fetchChunk = async (): Promise<RowEvent[]> => {
        const { rows } = await tx.query<{ r: Record<string, unknown> }>(
          `fetch forward ${SNAPSHOT_CHUNK} from heartsync_snapshot`,
        );
        if (this.copy) this.copy.rows += rows.length;
        return rows.map((x) => ({ table, key: this.getRowKey(cols, x.r), row: x.r }));
      };
      // A short chunk is the last one; an empty one ends a table whose size is a multiple of the chunk.
      let events = await fetchChunk();
      if (!pipelined) {
        while (events.length > 0) {
          this.throwIfStopped();
          merge(await this.applyEvents(tx, events));
          events = events.length === SNAPSHOT_CHUNK ? await fetchChunk() : [];
        }
      } else {
        let plan = this.planEvents(events, getRowIds(events), new Map());
        while (events.length > 0) {
          this.throwIfStopped();
          const following = events.length === SNAPSHOT_CHUNK ? await fetchChunk() : [];
          // The database writes this chunk while the next one is evaluated here.
          const written = this.writePlan(tx, plan);
          let planned: BatchPlan;
          try {
            planned = this.planEvents(following, getRowIds(following), new Map());
          } catch (e) {
            await written.catch(() => {}); // the transaction rolls back once its statement is done
            throw e;
          }
          merge(await written);
          events = following;
          plan = planned;
        }
      }
      await tx.exec('close heartsync_snapshot');
      await tx.query(
        'update heartsync_sync.captured_tables set snapshot_done = true where source_schema = $1 and source_table = $2',
        [table.schema, table.name],
      );
      return touched;
    });
    if (!batch) return false;
    if (batch.buckets.size > 0 || batch.parametersChanged) this.emit('committed', batch);
    return true;
  }

  /** One transaction: read up to BATCH_SIZE captured changes, store their ops, delete them; true if more may wait. */
  private async replicateBatch(): Promise<boolean> {
    // Notifications from here on are for changes this claim may not see (the claim reads after the lock).
    this.notified = false;
    // The lock is the transaction's opening statement: on PostgreSQL it travels with BEGIN and the claim in one
    // round trip (decision 0089), and the claim runs once the lock is held.
    const result = await this.db.transaction(async (tx) => {
      // Claim and delete in one statement; a change committed later with a lower id is still taken next time.
      const { rows } = await tx.query<{
        id: string;
        source_schema: string;
        source_table: string;
        op: string;
        old_row: Record<string, unknown> | null;
        new_row: Record<string, unknown> | null;
      }>(
        `delete from heartsync_sync.changes where id in (
           select id from heartsync_sync.changes order by id limit $1)
           and exists (select 1 from heartsync_sync.state where rules_hash = $2)
         returning id, source_schema, source_table, op, old_row, new_row`,
        [BATCH_SIZE, this.rules.hash],
        { name: 'hs_sync_claim' },
      );
      rows.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      if (rows.length === 0 && this.db.kind === 'postgres') {
        // Nothing claimed: an empty log, or rules changed by another process (ops of these rules would mix
        // into the ones the other process builds, so none are written from here on).
        const { rows: state } = await tx.query<{ rules_hash: string | null }>(
          'select rules_hash from heartsync_sync.state',
        );
        if (state[0] && state[0].rules_hash !== this.rules.hash) this.markSuperseded();
      }
      if (rows.length === 0) return undefined;
      const events: RowEvent[] = [];
      for (const c of rows) {
        const table = { schema: c.source_schema, name: c.source_table };
        if (!this.rules.tables.some((t) => t.schema === table.schema && t.name === table.name)) continue;
        const cols = await this.getPrimaryKey(tx, table);
        const oldKey = c.old_row ? this.getRowKey(cols, c.old_row) : undefined;
        const newKey = c.new_row ? this.getRowKey(cols, c.new_row) : undefined;
        if (oldKey !== undefined && oldKey !== newKey) events.push({ table, key: oldKey, row: null });
        if (newKey !== undefined && c.new_row) events.push({ table, key: newKey, row: c.new_row });
      }
      return { batch: await this.applyEvents(tx, events), full: rows.length === BATCH_SIZE };
    }, this.lockSetup);
    if (!result) return false;
    if (result.batch.buckets.size > 0 || result.batch.parametersChanged) this.emit('committed', result.batch);
    // A partial batch drained the log: no empty pass (on PGlite it would hold the one connection).
    return result.full;
  }

  /** Evaluates row events in order and writes the resulting ops, row memberships and lookups. */
  private async applyEvents(tx: Queryable, events: RowEvent[]): Promise<CommittedBatch> {
    const rowIds = getRowIds(events);
    return this.writePlan(tx, this.planEvents(events, rowIds, await this.loadMemberships(tx, rowIds)));
  }

  /** The rows' bucket memberships as stored before this batch, to know which ones change or end. */
  private async loadMemberships(
    tx: Queryable,
    rowIds: string[],
  ): Promise<Map<string, Map<string, CurrentEntry>>> {
    const loaded = new Map<string, Map<string, CurrentEntry>>();
    for (const id of rowIds) loaded.set(id, new Map());
    if (rowIds.length > 0) {
      const { rows } = await tx.query<{
        source_table: string;
        source_key: string;
        bucket: string;
        object_type: string;
        object_id: string;
        checksum: string | number;
        op_id: string;
      }>(
        `select c.source_table, c.source_key, c.bucket, c.object_type, c.object_id, c.checksum, c.op_id
           from heartsync_sync.current_rows c
           join unnest($1::text[], $2::text[]) as k(t, k) on c.source_table = k.t and c.source_key = k.k`,
        [
          rowIds.map((r) => r.split('\u0000')[0]),
          rowIds.map((r) => r.split('\u0000').slice(1).join('\u0000')),
        ],
        { name: 'hs_sync_memberships' },
      );
      for (const r of rows) {
        const rowId = `${r.source_table}\u0000${r.source_key}`;
        const entry: CurrentEntry = {
          bucket: r.bucket,
          objectType: r.object_type,
          objectId: r.object_id,
          checksum: Number(r.checksum),
          opId: r.op_id,
        };
        loaded.get(rowId)?.set(`${r.bucket}\u0000${r.object_type}\u0000${r.object_id}`, entry);
      }
    }
    return loaded;
  }

  /** The batch's ops, memberships and lookups, worked out in memory (no database access). */
  private planEvents(
    events: RowEvent[],
    rowIds: string[],
    loaded: Map<string, Map<string, CurrentEntry>>,
  ): BatchPlan {
    const onError = (m: string) => this.log.warn(`sync rules evaluation: ${m}`);
    const current = new Map<string, Map<string, CurrentEntry>>();
    for (const id of rowIds) current.set(id, new Map(loaded.get(id)));
    // Op ids are numbered 1..n here; the write statement shifts them onto the head it takes.
    let rel = 0;
    const ops: NewOp[] = [];
    const relIds = new Map<CurrentEntry, number>();
    const lookups = new Map<string, { table: SourceTable; key: string; lookup: string; params: string }[]>();
    const parameterRows = new Set<string>();
    for (const e of events) {
      const rowId = `${getTableKey(e.table)}\u0000${e.key}`;
      const previous = current.get(rowId) ?? new Map<string, CurrentEntry>();
      const next = new Map<string, CurrentEntry>();
      const outputs = e.row ? evaluateDataRow(this.rules, e.table, e.row, onError) : [];
      for (const o of outputs) {
        const k = `${o.bucket}\u0000${o.table}\u0000${o.id}`;
        const data = serializeRowData(o.data);
        const checksum = getOpChecksum('PUT', o.table, o.id, data);
        const before = previous.get(k);
        if (before && before.checksum === checksum) {
          next.set(k, before); // unchanged in this bucket: no op
          continue;
        }
        rel += 1;
        ops.push({ bucket: o.bucket, op: 'PUT', objectType: o.table, objectId: o.id, data, checksum, rel });
        const entry = { bucket: o.bucket, objectType: o.table, objectId: o.id, checksum, opId: '' };
        relIds.set(entry, rel);
        next.set(k, entry);
      }
      for (const [k, before] of previous) {
        if (next.has(k)) continue;
        rel += 1;
        const checksum = getOpChecksum('REMOVE', before.objectType, before.objectId, null);
        ops.push({
          bucket: before.bucket,
          op: 'REMOVE',
          objectType: before.objectType,
          objectId: before.objectId,
          data: null,
          checksum,
          rel,
        });
      }
      current.set(rowId, next);
      if (tableSyncsParameters(this.rules, e.table)) {
        parameterRows.add(rowId);
        const entries = e.row ? evaluateParameterRow(this.rules, e.table, e.row, onError) : [];
        lookups.set(
          rowId,
          entries.map((p) => ({
            table: e.table,
            key: e.key,
            lookup: p.lookup,
            params: JSON.stringify(p.bucketParameters, (_k, v: unknown) =>
              typeof v === 'bigint' ? v.toString() : v,
            ),
          })),
        );
      }
    }

    const sums = new Map<string, { checksum: number; count: number; last: number }>();
    for (const o of ops) {
      const s = sums.get(o.bucket) ?? { checksum: 0, count: 0, last: o.rel };
      s.checksum = (s.checksum + o.checksum) % CHECKSUM_MODULUS;
      s.count += 1;
      s.last = o.rel;
      sums.set(o.bucket, s);
    }
    // Row memberships: drop the ones that ended, upsert the ones with a new op; unchanged ones stay.
    const gone: Membership[] = [];
    const fresh: Membership[] = [];
    for (const rowId of rowIds) {
      const [table = '', ...rest] = rowId.split('\u0000');
      const key = rest.join('\u0000');
      const final = current.get(rowId) ?? new Map<string, CurrentEntry>();
      for (const [k, e] of loaded.get(rowId) ?? []) if (!final.has(k)) gone.push([table, key, e]);
      for (const e of final.values()) if (relIds.has(e)) fresh.push([table, key, e]);
    }
    const paramIds = [...parameterRows];
    const freshLookups = paramIds.flatMap((id) => lookups.get(id) ?? []);
    return { ops, sums, gone, fresh, relIds, paramIds, freshLookups };
  }

  /** Writes a planned batch in one statement. */
  private async writePlan(tx: Queryable, plan: BatchPlan): Promise<CommittedBatch> {
    const { ops, sums, gone, fresh, relIds, paramIds, freshLookups } = plan;
    if (ops.length === 0 && gone.length === 0 && paramIds.length === 0) {
      return {
        base: undefined,
        head: undefined,
        buckets: new Map(),
        parametersChanged: false,
        lookups: new Set(),
      };
    }

    // One statement writes everything (on PGlite every statement waits its turn on the one connection):
    // the head moves by the number of ops, the ops, their buckets' running checksums, the row memberships
    // and the parameter lookups. Each table is touched by one CTE on disjoint rows (the lookups that stay
    // are upserted, only the others deleted), as PostgreSQL requires within one statement. The statement
    // is a function (schema.sql), parsed once per connection: a batch of a few rows (a member's write)
    // uses the plan made once per connection, a bigger one is planned for its size (decision 0113).
    const small =
      ops.length + gone.length + fresh.length + paramIds.length + freshLookups.length <= SMALL_BATCH_ROWS;
    const { rows } = await tx.query<{
      base: string;
      buckets: [string, string | number, string | number][] | null;
      lookups: string[];
    }>(
      `select base, buckets, lookups from heartsync_sync.${small ? 'write_small_batch' : 'write_batch'}(
         $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
         $21, $22, $23, $24, $25, $26, $27, $28, $29, $30)`,
      [
        ops.length,
        ops.map((o) => o.bucket),
        ops.map((o) => o.rel),
        ops.map((o) => o.op),
        ops.map((o) => o.objectType),
        ops.map((o) => o.objectId),
        ops.map((o) => o.data),
        ops.map((o) => o.checksum),
        [...sums.keys()],
        [...sums.values()].map((s) => s.checksum),
        [...sums.values()].map((s) => s.count),
        [...sums.values()].map((s) => s.last),
        gone.map((g) => g[0]),
        gone.map((g) => g[1]),
        gone.map((g) => g[2].bucket),
        gone.map((g) => g[2].objectType),
        gone.map((g) => g[2].objectId),
        fresh.map((f) => f[0]),
        fresh.map((f) => f[1]),
        fresh.map((f) => f[2].bucket),
        fresh.map((f) => f[2].objectType),
        fresh.map((f) => f[2].objectId),
        fresh.map((f) => f[2].checksum),
        fresh.map((f) => relIds.get(f[2]) ?? 0),
        paramIds.map((r) => r.split('\u0000')[0] ?? ''),
        paramIds.map((r) => r.split('\u0000').slice(1).join('\u0000')),
        freshLookups.map((f) => getTableKey(f.table)),
        freshLookups.map((f) => f.key),
        freshLookups.map((f) => f.lookup),
        freshLookups.map((f) => f.params),
      ],
      { name: small ? 'hs_sync_write_small_batch' : 'hs_sync_write_batch' },
    );
    const row = rows[0];
    if (!row) throw new Error('sync state row is missing');
    const base = BigInt(row.base);
    const buckets = new Map<string, BucketState>();
    for (const [bucket, checksum, count] of row.buckets ?? []) {
      buckets.set(bucket, { checksum: Number(checksum), count: Number(count), ops: [] });
    }
    for (const o of ops) {
      const op: StoredOp = { op_id: String(base + BigInt(o.rel)), op: o.op, checksum: o.checksum };
      op.object_type = o.objectType;
      op.object_id = o.objectId;
      if (o.data !== null) op.data = o.data;
      buckets.get(o.bucket)?.ops.push(op);
    }
    return {
      base: String(base),
      head: String(base + BigInt(ops.length)),
      buckets,
      parametersChanged: row.lookups.length > 0,
      lookups: new Set(row.lookups),
    };
  }
}

/** Quotes an identifier that came from the rules file or the catalog, never from a request. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
