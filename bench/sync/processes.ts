// The sync bench's processes. The server and each device run in a process of their own, as they do for
// real: in one process, PGlite's queries (synchronous WebAssembly) and one client's work would hold the
// other client's event loop, which no device pair ever shares. The WebSocket relay is measured in the same
// layout (relay process, sender process, receiver process), so both sides pay the same process hops.
//
// Times cross processes as wall-clock milliseconds (performance.timeOrigin + performance.now(), one clock
// on one machine): the writer stamps just before its local insert (or socket send), the reader when the
// row is readable from its replica (or the message arrived).
//
// Run as a child: `fork(import.meta.filename, [role])`; the parent drives it with spawnRole().
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import {
  PowerSyncDatabase,
  Schema,
  SyncStreamConnectionMethod,
  Table,
  column,
  type AbstractPowerSyncDatabase,
} from '@powersync/node';
import { getPowerSyncExtensionFilename } from '@powersync/node/worker.js';
import type { FastifyInstance } from 'fastify';
import { WebSocket, WebSocketServer } from 'ws';
import type { AppContext } from '../../server/context.ts';
import {
  openSyncClient,
  plainSdkWorkers,
  startSyncServer,
  type SyncTestServer,
} from '../../tests/server/sync-support.ts';
import { createTestDatabase, type TestDatabase } from '../../tests/support/test-databases.ts';
import { BENCH_MEMBERS, type BenchMember } from './members.ts';
import { median } from '../support/median.ts';

export const setupSql = `
  create table public.bench_notes (id uuid primary key, room text not null, author text not null, body text not null,
    created_at timestamptz not null default now());
  create table public.bench_rows (id uuid primary key, owner text not null, title text not null, n int not null);`;
export const rulesYaml = `
bucket_definitions:
  room:
    parameters: select 'lobby' as room
    data:
      - select id, room, author, body from bench_notes where room = bucket.room
  rows:
    parameters: select request.user_id() as owner
    data:
      - select id, owner, title, n from bench_rows where owner = bucket.owner`;
export const schema = new Schema({
  bench_notes: new Table({ room: column.text, author: column.text, body: column.text }),
  bench_rows: new Table({ owner: column.text, title: column.text, n: column.integer }),
});
/** The payload both sides carry: the same note, as the row's body and in the relayed message. */
export const payload = 'x'.repeat(200);

/** Milliseconds on the machine's clock, comparable between processes. */
export const wallNow = () => performance.timeOrigin + performance.now();

/** The slice of better-sqlite3 used here (the package ships no types; @powersync/node drives it too). */
interface DirectSqlite {
  pragma(source: string): unknown;
  exec(source: string): void;
  prepare(source: string): { run(...params: unknown[]): unknown; get(...params: unknown[]): unknown };
  transaction<T>(fn: () => T): () => T;
  loadExtension(file: string, entryPoint: string): void;
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (file: string) => DirectSqlite;

type Handler = (...args: never[]) => unknown;
type Message =
  | { type: 'call'; id: number; method: string; args: unknown[] }
  | { type: 'result'; id: number; value?: unknown; error?: string }
  | { type: 'event'; name: string; data: unknown };

/** A child process running one role, with calls answered over IPC and events it emits. */
export interface RoleProcess {
  call<T>(method: string, ...args: unknown[]): Promise<T>;
  on(name: string, listener: (data: never) => void): void;
  stop(): Promise<void>;
}

export async function spawnRole(role: string): Promise<RoleProcess> {
  const child: ChildProcess = fork(import.meta.filename, [role], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const listeners = new Map<string, ((data: never) => void)[]>();
  let next = 0;
  const ready = new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench process ${role} exited with ${code}`)));
    child.on('message', (m: Message) => {
      if (m.type === 'event' && m.name === 'ready') resolve();
      else if (m.type === 'event') for (const l of listeners.get(m.name) ?? []) l(m.data as never);
      else if (m.type === 'result') {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.error !== undefined) p?.reject(new Error(`${role}: ${m.error}`));
        else p?.resolve(m.value);
      }
    });
  });
  await ready;
  return {
    call<T>(method: string, ...args: unknown[]) {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ type: 'call', id, method, args } satisfies Message);
      });
    },
    on(name, listener) {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
    },
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'call', id: next++, method: 'exit', args: [] } satisfies Message);
      await exited;
    },
  };
}

/** BENCH_TRACE=1: each process notes what it did and when (wall clock), for run.ts to print a timeline. */
const tracing = process.env['BENCH_TRACE'] === '1';
const traced: { at: number; what: string }[] = [];
const note = (what: string) => {
  if (tracing) traced.push({ at: wallNow(), what });
};
const takeTrace = () => traced.splice(0);

function emit(name: string, data: unknown) {
  process.send?.({ type: 'event', name, data } satisfies Message);
}

// ---- roles (run in the child) ----

const kind = process.env['TEST_DATABASE_URL'] ? 'postgres' : 'pglite';

function serverRole(): Record<string, Handler> {
  let t: SyncTestServer | undefined;
  /** The writer's upload endpoint: a plain insert, as the app's REST upload of one put is. */
  const benchRoutes = async (app: FastifyInstance, ctx: AppContext) => {
    app.post('/bench/upload', async (request) => {
      const ops = request.body as { id: string; data: Record<string, unknown> }[];
      note('server: upload request');
      for (const op of ops)
        await ctx.db.query('insert into bench_notes (id, room, author, body) values ($1, $2, $3, $4)', [
          op.id,
          op.data['room'],
          op.data['author'],
          op.data['body'],
        ]);
      note('server: upload inserted');
      return { ok: true };
    });
  };
  return {
    async start() {
      t = await startSyncServer(kind, { rulesYaml, setupSql, parts: [benchRoutes] });
      if (tracing) {
        t.sync.replicator.on('committed', () => note('server: batch committed'));
        // Every statement's start and duration (transactions' statements included).
        type Q = {
          query: (...a: unknown[]) => Promise<unknown>;
          exec: (...a: unknown[]) => Promise<unknown>;
        };
        const timedQ = (q: Q, prefix: string): Q => ({
          query: (...a) => {
            const start = wallNow();
            return q.query(...a).finally(() => {
              if (tracing)
                traced.push({
                  at: start,
                  what: `server: ${prefix}${(wallNow() - start).toFixed(1)} ms ${String(a[0]).replace(/\s+/g, ' ').trim().slice(0, 40)}`,
                });
            });
          },
          exec: (...a) => q.exec(...a),
        });
        const db = t.ctx.db as unknown as Q & {
          transaction: (fn: (tx: Q) => Promise<unknown>, options?: unknown) => Promise<unknown>;
        };
        const { query } = timedQ({ query: db.query.bind(db), exec: db.exec.bind(db) }, '');
        const transaction = db.transaction.bind(db);
        db.query = query;
        db.transaction = (fn, options) => {
          const start = wallNow();
          return transaction((tx) => fn(timedQ(tx, '  tx: ')), options).finally(() =>
            traced.push({ at: start, what: `server: transaction ${(wallNow() - start).toFixed(1)} ms` }),
          );
        };
        await t.db.listen('heartsync_sync_changes', () => note('server: change notified'));
        const write = http.ServerResponse.prototype.write;
        http.ServerResponse.prototype.write = function (
          this: http.ServerResponse,
          chunk: unknown,
          ...rest: unknown[]
        ) {
          if (typeof chunk === 'string' && !chunk.startsWith('{"token_expires_in"'))
            note(`server: stream write ${chunk.slice(0, 40)}`);
          return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
        } as never;
      }
      return t.url;
    },
    token: (member: BenchMember) => t!.signToken(BENCH_MEMBERS[member]),
    trace: takeTrace,
    async seed(rows: number) {
      await t!.db.query(
        `insert into bench_rows (id, owner, title, n) select gen_random_uuid(), $2, 'row ' || g, g
           from generate_series(1, $1) g`,
        [rows, BENCH_MEMBERS.owner],
      );
      await t!.sync.replicator.flush();
    },
    async close() {
      await t?.close();
    },
  };
}

function deviceRole(): Record<string, Handler> {
  let client: Awaited<ReturnType<typeof openSyncClient>> | undefined;
  let expected: string | undefined;
  let mode = 'change';
  const check = async () => {
    const id = expected;
    if (id === undefined) return;
    const rows = await client!.db.getAll('select id from bench_notes where id = ?', [id]);
    if (rows.length === 1 && expected === id) {
      expected = undefined;
      note('device: row read');
      emit('seen', { id, at: wallNow() });
    }
  };
  return {
    async open(url: string, token: string, readerMode?: string) {
      mode = readerMode ?? 'change';
      const upload = async (db: AbstractPowerSyncDatabase) => {
        const batch = await db.getCrudBatch(100);
        if (!batch) return;
        note('device: upload starts');
        const res = await fetch(`${url}/bench/upload`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(batch.crud.map((op) => ({ id: op.id, data: op.opData ?? {} }))),
        });
        if (!res.ok) throw new Error(`upload answered ${res.status}`);
        await batch.complete();
        note('device: upload complete');
      };
      const logger = {
        log(record: { message?: unknown }) {
          const m = String(record.message ?? '');
          if (m.startsWith('powersync_control(')) note(`device: control ${m.slice(18, 58)}`);
        },
      };
      client = await openSyncClient({ url }, schema, async () => token, upload, tracing ? { logger } : {});
      await client.db.waitForFirstSync();
      // The SDK's own signal that a write to the replica committed (what watched queries wait for),
      // without the 30 ms throttle a watched query adds by default; then one read confirms the row.
      client.db.database.registerListener({
        tablesUpdated: (update) => {
          note(`device: tables updated ${JSON.stringify(update).slice(0, 60)}`);
          if (mode === 'change' && JSON.stringify(update).includes('bench_notes')) void check();
        },
      });
    },
    trace: takeTrace,
    /** The reader: report when this id can be read from the replica. */
    async expect(id: string) {
      expected = id;
      if (mode === 'poll') {
        // The former method: a read every millisecond until the row is there.
        void (async () => {
          while (expected === id) {
            await check();
            await new Promise((r) => setTimeout(r, 1));
          }
        })();
      }
    },
    /** The writer: the local insert; answers the time it started. */
    async write(id: string) {
      const at = wallNow();
      await client!.db.execute('insert into bench_notes (id, room, author, body) values (?, ?, ?, ?)', [
        id,
        'lobby',
        'writer',
        payload,
      ]);
      return at;
    },
    async close() {
      await client?.close();
    },
  };
}

function relayRole(): Record<string, Handler> {
  let wss: WebSocketServer | undefined;
  return {
    async start() {
      wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
      await new Promise((r) => wss!.once('listening', r));
      // A relay: what one socket sends, every other socket receives.
      wss.on('connection', (socket) => {
        socket.on('message', (data) => {
          for (const other of wss!.clients) if (other !== socket) other.send(data);
        });
      });
      return `ws://127.0.0.1:${(wss.address() as { port: number }).port}`;
    },
    async close() {
      for (const c of wss?.clients ?? []) c.terminate();
      await new Promise((r) => wss?.close(r));
    },
  };
}

/**
 * The relay again, storing what it carries: the server inserts each message into the same database kind
 * before relaying it (storedRelayRole), the sender inserts into its SDK database before sending and the
 * receiver inserts into its own before it counts as seen (storedSocketRole). Transport plus the three
 * durable writes any synced write needs, without the sync protocol: the floor a sync service can approach.
 */
function storedRelayRole(): Record<string, Handler> {
  let wss: WebSocketServer | undefined;
  let db: TestDatabase | undefined;
  return {
    async start() {
      db = await createTestDatabase(kind);
      await db.exec(setupSql);
      wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
      await new Promise((r) => wss!.once('listening', r));
      wss.on('connection', (socket) => {
        socket.on('message', (data) => {
          const m = JSON.parse(data.toString()) as { id: string; room: string; author: string; body: string };
          void db!
            .query('insert into bench_notes (id, room, author, body) values ($1, $2, $3, $4)', [
              m.id,
              m.room,
              m.author,
              m.body,
            ])
            .then(() => {
              for (const other of wss!.clients) if (other !== socket) other.send(data);
            });
        });
      });
      return `ws://127.0.0.1:${(wss.address() as { port: number }).port}`;
    },
    async close() {
      for (const c of wss?.clients ?? []) c.terminate();
      await new Promise((r) => wss?.close(r));
      await db?.destroy();
    },
  };
}

function storedSocketRole(): Record<string, Handler> {
  let ws: WebSocket | undefined;
  let db: PowerSyncDatabase | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-stored-'));
  const insert = (m: { id: string; room: string; author: string; body: string }) =>
    db!.execute('insert into bench_notes (id, room, author, body) values (?, ?, ?, ?)', [
      m.id,
      m.room,
      m.author,
      m.body,
    ]);
  return {
    async open(url: string) {
      db = new PowerSyncDatabase({
        schema,
        database: { dbFilename: 'device.db', dbLocation: dir, ...plainSdkWorkers },
        logger: { log() {} },
      });
      await db.init();
      ws = await new Promise<WebSocket>((resolve, reject) => {
        const s = new WebSocket(url);
        s.once('open', () => resolve(s));
        s.once('error', reject);
      });
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString()) as { id: string; room: string; author: string; body: string };
        void insert(m).then(() => emit('seen', { id: m.id, at: wallNow() }));
      });
    },
    expect() {},
    async write(id: string) {
      const at = wallNow();
      const m = { id, room: 'lobby', author: 'writer', body: payload };
      await insert(m);
      ws!.send(JSON.stringify(m));
      return at;
    },
    async close() {
      ws?.close();
      await db?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function socketRole(): Record<string, Handler> {
  let ws: WebSocket | undefined;
  return {
    async open(url: string) {
      ws = await new Promise<WebSocket>((resolve, reject) => {
        const s = new WebSocket(url);
        s.once('open', () => resolve(s));
        s.once('error', reject);
      });
      ws.on('message', (data: Buffer) => {
        const at = wallNow();
        emit('seen', { id: (JSON.parse(data.toString()) as { id: string }).id, at });
      });
    },
    expect() {},
    write(id: string) {
      const at = wallNow();
      ws!.send(JSON.stringify({ id, room: 'lobby', author: 'writer', body: payload }));
      return at;
    },
    close() {
      ws?.close();
    },
  };
}

/** The server's answer to a first sync, read raw up to its first completed checkpoint. */
async function readFirstSyncAnswer(url: string, token: string): Promise<Buffer> {
  const res = await fetch(`${url}/sync/stream`, {
    method: 'POST',
    headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ buckets: [], client_id: 'bench-replay' }),
  });
  const chunks: Buffer[] = [];
  await readUntilCheckpointComplete(res, (chunk) => chunks.push(Buffer.from(chunk)));
  return Buffer.concat(chunks);
}

/**
 * Reads a sync stream's answer up to its first `checkpoint_complete`, handing each chunk to `onChunk`, then
 * cancels the stream. Only the answer's tail is searched: searching all of it after every chunk took longer
 * than the server's writing of it (profile-initial.ts).
 */
export async function readUntilCheckpointComplete(
  res: Response,
  onChunk: (chunk: Uint8Array) => void,
): Promise<void> {
  if (!res.ok || !res.body) throw new Error(`sync stream answered ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder('latin1');
  let tail = '';
  for (;;) {
    const next = await reader.read();
    if (next.done) throw new Error('the sync stream ended before its first checkpoint completed');
    onChunk(next.value);
    tail = (tail + decoder.decode(next.value)).slice(-200);
    if (tail.includes('checkpoint_complete')) break;
  }
  await reader.cancel();
}

/** A fresh replica's first sync from the given answer served from memory (the stream then stays open). */
async function measureReplayedSync(
  answer: Buffer,
  token: string,
  rows: number,
  dir: string,
): Promise<number> {
  const replay = http.createServer((req, res) => {
    req.resume();
    if (req.method === 'POST' && req.url?.startsWith('/sync/stream')) {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(answer);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => replay.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(replay.address() as { port: number }).port}`;
  fs.mkdirSync(dir, { recursive: true });
  const db = new PowerSyncDatabase({
    schema,
    database: { dbFilename: 'replica.db', dbLocation: dir, ...plainSdkWorkers },
    logger: { log() {} },
  });
  try {
    await db.init();
    const started = performance.now();
    await db.connect(
      { fetchCredentials: async () => ({ endpoint, token }), uploadData: async () => {} },
      { connectionMethod: SyncStreamConnectionMethod.HTTP },
    );
    await db.waitForFirstSync();
    const ms = performance.now() - started;
    const { n } = await db.get<{ n: number }>('select count(*) as n from bench_rows');
    if (n !== rows) throw new Error(`the replayed sync delivered ${n} rows, expected ${rows}`);
    return ms;
  } finally {
    await db.close();
    replay.closeAllConnections();
    replay.close();
  }
}

/** The SDK's SQLite extension (the PowerSync core), where @powersync/node's workers load it from. */
const coreExtensionPath = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@powersync/node/package.json')),
  'lib',
  getPowerSyncExtensionFilename(),
);

/**
 * The PowerSync core alone: the SDK's SQLite extension, loaded into a fresh file on this thread, is handed the
 * answer's lines one by one (each in a write transaction, as the SDK's sync client does), with no network, no
 * worker and none of the SDK's JavaScript. What the core itself does with a first sync (its op log, the
 * checkpoint's checksums, the copy into the tables) is the floor for any client built on it.
 */
function measureCoreAlone(answer: Buffer, rows: number, dir: string): number {
  const lines = answer
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  fs.mkdirSync(dir, { recursive: true });
  const db = new Database(path.join(dir, 'core.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.loadExtension(coreExtensionPath, 'sqlite3_powersync_init');
    db.transaction(() => {
      db.prepare('select powersync_init()').get();
      db.prepare('select powersync_replace_schema(?)').get(JSON.stringify(schema.toJSON()));
    })();
    const control = db.prepare('select powersync_control(?, ?)');
    const started = performance.now();
    db.transaction(() => control.get('start', JSON.stringify({ parameters: {} })))();
    for (const line of lines) db.transaction(() => control.get('line_text', line))();
    const ms = performance.now() - started;
    const { n } = db.prepare('select count(*) as n from bench_rows').get() as { n: number };
    if (n !== rows) throw new Error(`the core alone applied ${n} rows, expected ${rows}`);
    return ms;
  } finally {
    db.close();
  }
}

/** Runs of each floor measured in-process (direct SQLite, the core alone); the median is taken. */
const BASELINE_RUNS = 3;

/** First syncs the server answers, read raw, before the measured one (BENCH_SERVER_WARMUPS). */
const SERVER_WARMUPS = Number(process.env['BENCH_SERVER_WARMUPS'] ?? 3);

/**
 * Initial sync in this process, on a fresh replica: an opened, empty database (the SDK's workers, SQLite,
 * its extension and the schema) before the clock starts; then connect until the first sync completed.
 * Against it, the same number of rows inserted into SQLite directly (better-sqlite3, WAL as the SDK uses),
 * also into an opened, empty database with its table. Opening is timed separately on both sides.
 * Then the client's own floor: the server's whole answer read once, served from memory by a local HTTP server
 * in this process, and a third fresh replica's first sync from it (what the SDK costs with a server that takes
 * no time at all); and the core's own floor under that: the same answer's lines handed straight to the SDK's
 * SQLite extension (measureCoreAlone).
 */
function initialRole(): Record<string, Handler> {
  return {
    async run(url: string, token: string, rows: number) {
      // A server that has answered first syncs before, as a running one has: V8 has optimized its stream's
      // code by then. The device's SDK and replica stay fresh (a new install is cold).
      for (let i = 0; i < SERVER_WARMUPS; i++) await readFirstSyncAnswer(url, token);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-bench-initial-'));
      let started = performance.now();
      const db = new PowerSyncDatabase({
        schema,
        database: { dbFilename: 'replica.db', dbLocation: dir, ...plainSdkWorkers },
        logger: { log() {} },
      });
      await db.init();
      const openMs = performance.now() - started;
      started = performance.now();
      await db.connect(
        { fetchCredentials: async () => ({ endpoint: url, token }), uploadData: async () => {} },
        { connectionMethod: SyncStreamConnectionMethod.HTTP },
      );
      await db.waitForFirstSync();
      const syncMs = performance.now() - started;
      const { n } = await db.get<{ n: number }>('select count(*) as n from bench_rows');
      await db.close();
      if (n !== rows) throw new Error(`initial sync delivered ${n} rows, expected ${rows}`);

      const values = Array.from({ length: rows }, (_, i) => [
        crypto.randomUUID(),
        BENCH_MEMBERS.owner,
        `row ${i + 1}`,
        i + 1,
      ]);
      // The floors are a few tens of milliseconds, where one run can be off by half: each is the median of
      // BASELINE_RUNS, every run into a fresh file.
      const direct = Array.from({ length: BASELINE_RUNS }, (_, run) => {
        let at = performance.now();
        const file = new Database(path.join(dir, `direct-${run}.db`));
        file.pragma('journal_mode = WAL');
        file.exec('create table bench_rows (id text primary key, owner text, title text, n integer)');
        const openMs = performance.now() - at;
        at = performance.now();
        const insert = file.prepare('insert into bench_rows (id, owner, title, n) values (?, ?, ?, ?)');
        file.transaction(() => {
          for (const v of values) insert.run(...v);
        })();
        const insertMs = performance.now() - at;
        file.close();
        return { openMs, insertMs };
      });
      const sqliteOpenMs = median(direct.map((d) => d.openMs));
      const sqliteMs = median(direct.map((d) => d.insertMs));
      const answer = await readFirstSyncAnswer(url, token);
      const replayMs = await measureReplayedSync(answer, token, rows, path.join(dir, 'replay'));
      const coreMs = median(
        Array.from({ length: BASELINE_RUNS }, (_, run) =>
          measureCoreAlone(answer, rows, path.join(dir, `core-${run}`)),
        ),
      );
      fs.rmSync(dir, { recursive: true, force: true });
      return { openMs, syncMs, sqliteOpenMs, sqliteMs, replayMs, coreMs };
    },
  };
}

if (process.send && process.argv[2]) {
  const role = process.argv[2];
  const roles: Record<string, () => Record<string, Handler>> = {
    server: serverRole,
    device: deviceRole,
    relay: relayRole,
    socket: socketRole,
    'stored-relay': storedRelayRole,
    'stored-socket': storedSocketRole,
    initial: initialRole,
  };
  const handlers = roles[role]?.();
  if (!handlers) throw new Error(`unknown bench role ${role}`);
  // A parent that dies (an error, Ctrl-C) takes its roles with it.
  process.on('disconnect', () => process.exit(0));
  process.on('message', (m: Message) => {
    if (m.type !== 'call') return;
    if (m.method === 'exit') {
      process.disconnect();
      process.exit(0);
    }
    void (async () => {
      try {
        const value = await (handlers[m.method] as (...a: unknown[]) => unknown)(...m.args);
        process.send!({ type: 'result', id: m.id, value } satisfies Message);
      } catch (e) {
        process.send!({ type: 'result', id: m.id, error: (e as Error).stack ?? String(e) } satisfies Message);
      }
    })();
  });
  emit('ready', role);
}
