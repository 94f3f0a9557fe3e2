// The bus between server processes that share one PostgreSQL database: realtime broadcasts and presence,
// sync wake-ups, write checkpoints and ended sessions reach every process through LISTEN/NOTIFY
// (decision 0052). On PGlite, which serves one process, the bus sends nothing.
import crypto from 'node:crypto';
import type { Database } from '../db/database.ts';
import type { RelayedBatch } from '../sync/batch-relay.ts';

/** What travels between processes; each part reads only its own kinds. */
export interface BusMessages {
  'sessions-ended': { userId: string; sessionIds: string[] | 'all' };
  'rt-broadcast': { topic: string; event: string; encoding: 0 | 1; payload: string };
  'rt-presence': {
    topic: string;
    joins: Record<string, { metas: Record<string, unknown>[] }>;
    leaves: Record<string, { metas: Record<string, unknown>[] }>;
  };
  /** Every topic's presence of the sender, in answer to a hello (or on its own start). */
  'rt-presence-state': {
    topics: Record<string, Record<string, { metas: Record<string, unknown>[] }>>;
    to?: string;
  };
  'process-hello': Record<string, never>;
  'process-alive': Record<string, never>;
  'process-bye': Record<string, never>;
  /**
   * A replication batch another process committed: the buckets and parameter lookups it touched and, unless
   * too many, the batch itself (whole when small, by its range when large), so streams that followed every
   * batch can send it from memory as they do their own process's (sync/batch-relay.ts).
   */
  'sync-batch': RelayedBatch;
  'sync-write-checkpoint': { userId: string; clientId: string; checkpoint: string };
  /** Hits counted by one process's rate limiter, for the same limiter on the others to count too. */
  'rate-hits': { limiter: string; keys: string[] };
}

export type BusKind = keyof BusMessages;
export type BusHandler<K extends BusKind> = (message: BusMessages[K], origin: string) => void;

export interface ClusterBus {
  /** This process's id on the bus. */
  readonly origin: string;
  /** True when other processes may exist (PostgreSQL); false for the single-process bus. */
  readonly shared: boolean;
  /** Sends to every other process, in order; never delivered back to this one. */
  publish<K extends BusKind>(kind: K, message: BusMessages[K]): void;
  on<K extends BusKind>(kind: K, handler: BusHandler<K>): () => void;
  close(): Promise<void>;
}

export const BUS_CHANNEL = 'heartsync_bus';
/** pg_notify payloads must stay under 8000 bytes; larger messages go as base64 chunks of this many bytes. */
const CHUNK_BYTES = 5000;
/** Chunks of a message not completed within this time are dropped (a sender died mid-message). */
const PARTIAL_TTL_MS = 30_000;

interface Envelope {
  o: string;
  /**
   * The sender's message number. PostgreSQL delivers identical payloads sent in one transaction only once,
   * and one send carries every queued message: the number keeps two equal messages (a repeated broadcast,
   * two rate-limit hits on one key) apart.
   */
  s: number;
  k: BusKind;
  m: unknown;
}

interface ChunkEnvelope {
  o: string;
  c: string;
  i: number;
  n: number;
  d: string;
}

class Handlers {
  private readonly byKind = new Map<BusKind, Set<(m: unknown, origin: string) => void>>();
  add<K extends BusKind>(kind: K, handler: BusHandler<K>): () => void {
    let set = this.byKind.get(kind);
    if (!set) this.byKind.set(kind, (set = new Set()));
    const h = handler as (m: unknown, origin: string) => void;
    set.add(h);
    return () => set.delete(h);
  }
  dispatch(kind: BusKind, message: unknown, origin: string, onError: (e: Error) => void): void {
    for (const h of this.byKind.get(kind) ?? []) {
      try {
        h(message, origin);
      } catch (e) {
        onError(e as Error);
      }
    }
  }
}

/** The bus of a process that is alone: publishing is a no-op. */
export function createLocalBus(): ClusterBus {
  const handlers = new Handlers();
  return {
    origin: crypto.randomUUID(),
    shared: false,
    publish() {},
    on: (kind, handler) => handlers.add(kind, handler),
    async close() {},
  };
}

/** Splits one encoded envelope into NOTIFY payloads (one when it fits). */
export function encodeForNotify(envelope: Envelope): string[] {
  const text = JSON.stringify(envelope);
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= CHUNK_BYTES) return [text];
  const id = crypto.randomBytes(8).toString('hex');
  const n = Math.ceil(bytes.length / CHUNK_BYTES);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const chunk: ChunkEnvelope = {
      o: envelope.o,
      c: id,
      i,
      n,
      d: bytes.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES).toString('base64'),
    };
    out.push(JSON.stringify(chunk));
  }
  return out;
}

/** Reassembles chunked payloads; returns the envelope once complete (or at once when unchunked). */
export class NotifyDecoder {
  private readonly partial = new Map<string, { parts: (Buffer | undefined)[]; got: number; at: number }>();

  decode(payload: string, now = Date.now()): Envelope | undefined {
    const value = JSON.parse(payload) as Partial<Envelope & ChunkEnvelope>;
    if (typeof value.o !== 'string') return undefined;
    if (typeof value.c !== 'string') {
      return typeof value.k === 'string' ? (value as Envelope) : undefined;
    }
    const { c, i, n, d } = value;
    if (typeof i !== 'number' || typeof n !== 'number' || typeof d !== 'string' || i < 0 || i >= n) return;
    for (const [key, p] of this.partial) if (now - p.at > PARTIAL_TTL_MS) this.partial.delete(key);
    const key = `${value.o}:${c}`;
    let entry = this.partial.get(key);
    if (!entry) this.partial.set(key, (entry = { parts: new Array(n).fill(undefined), got: 0, at: now }));
    if (entry.parts[i] === undefined) {
      entry.parts[i] = Buffer.from(d, 'base64');
      entry.got++;
    }
    if (entry.got < n) return undefined;
    this.partial.delete(key);
    const text = Buffer.concat(entry.parts as Buffer[]).toString('utf8');
    return JSON.parse(text) as Envelope;
  }
}

/**
 * The bus over PostgreSQL: one LISTEN connection, and NOTIFYs sent in order. Messages published while a
 * send is in flight go together in the next statement (one round trip), in publish order; PostgreSQL
 * delivers one transaction's notifications in the order they were sent.
 */
export async function createPostgresBus(db: Database, log: { warn(msg: string): void }): Promise<ClusterBus> {
  const origin = crypto.randomUUID();
  const handlers = new Handlers();
  const decoder = new NotifyDecoder();
  let queue: string[] = [];
  let sequence = 0;
  let sending: Promise<void> | undefined;
  let closed = false;
  const onError = (e: Error) => log.warn(`cluster bus handler failed: ${e.message}`);

  const stopListening = await db.listen(BUS_CHANNEL, (payload) => {
    let envelope: Envelope | undefined;
    try {
      envelope = decoder.decode(payload);
    } catch {
      log.warn('cluster bus: an unreadable message was dropped');
      return;
    }
    if (!envelope || envelope.o === origin) return;
    handlers.dispatch(envelope.k, envelope.m, envelope.o, onError);
  });

  const drain = async () => {
    while (queue.length > 0 && !closed) {
      const batch = queue;
      queue = [];
      try {
        // unnest yields the array in order, and one statement's notifications are delivered in order.
        await db.query(`select pg_notify('${BUS_CHANNEL}', p) from unnest($1::text[]) as p`, [batch]);
      } catch (e) {
        // Other processes miss these; each kind has its own recovery (presence heartbeats, the sync poll).
        log.warn(`cluster bus: ${batch.length} message(s) not sent: ${(e as Error).message}`);
      }
    }
  };

  const kick = () => {
    if (sending || closed) return;
    sending = drain().finally(() => {
      sending = undefined;
      // A message published between the loop's end and here would otherwise wait for the next publish.
      if (queue.length > 0) kick();
    });
  };

  return {
    origin,
    shared: true,
    publish(kind, message) {
      if (closed) return;
      queue.push(...encodeForNotify({ o: origin, s: sequence++, k: kind, m: message }));
      kick();
    },
    on: (kind, handler) => handlers.add(kind, handler),
    async close() {
      await sending;
      closed = true;
      await stopListening();
    },
  };
}
