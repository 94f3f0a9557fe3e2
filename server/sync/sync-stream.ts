// POST /sync/stream: one member's NDJSON sync stream (checkpoint, data, checkpoint_complete, then diffs),
// and GET /write-checkpoint2.json, as the PowerSync client expects them.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { JwtClaims } from '../auth/keys.ts';
import type { AppContext } from '../context.ts';
import { readBearer, resolveCaller } from '../caller/caller.ts';
import {
  findParameterSets,
  findWriteCheckpoint,
  readCheckpoint,
  readOpsJson,
  saveWriteCheckpoint,
  type BucketChecksum,
  type StoredOp,
} from './bucket-storage.ts';
import type { BucketState, CommittedBatch, Replicator } from './replicator.ts';
import type { ResolvedBucket } from '@powersync/service-sync-rules';
import { createBucketResolver, type BucketResolver, type LoadedRules } from './rules.ts';

const KEEPALIVE_MS = 20_000;
const OPS_PER_LINE = 1000;
const PRIORITY = 3;
/** Batches a stream keeps to send from memory; past this it reads the database once instead. */
const MAX_FOLLOWED = 1000;

/** A run of batches a stream followed: the head before and after, and what they did to its buckets. */
interface Followed {
  base: bigint;
  head: bigint;
  buckets: Map<string, BucketState>;
}

const opIdSchema = z.string().regex(/^\d{1,19}$/, 'an op id is a decimal integer');
/** A client id is an identifier: control characters (NUL above all, which PostgreSQL cannot store) are refused. */
// eslint-disable-next-line no-control-regex
const CLIENT_ID = /^[^\u0000-\u001f]*$/;
const streamRequestSchema = z.object({
  buckets: z
    .array(z.object({ name: z.string().min(1).max(1000), after: opIdSchema }))
    .max(10_000)
    .optional(),
  include_checksum: z.boolean().optional(),
  raw_data: z.boolean().optional(),
  binary_data: z.boolean().optional(),
  client_id: z.string().max(200).regex(CLIENT_ID, 'a client id holds no control characters').optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  streams: z
    .object({ include_defaults: z.boolean().optional(), subscriptions: z.array(z.unknown()).optional() })
    .optional(),
  app_metadata: z.record(z.string(), z.unknown()).optional(),
});

export interface SyncStreamOptions {
  rules: LoadedRules;
  replicator: Replicator;
  keepaliveMs?: number;
}

/** Verifies the `Token <jwt>` (or Bearer) header; answers 401 and returns undefined when it does not hold. */
async function authenticate(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<(JwtClaims & { sub: string }) | undefined> {
  const token = readBearer(request.headers.authorization, true);
  if (!token) {
    await reply.code(401).send({ error: { code: 'PSYNC_S2101', message: 'Authorization token required' } });
    return undefined;
  }
  const result = await resolveCaller(ctx, token);
  if (!result.ok) {
    // A busy database is not a bad token: the client retries instead of asking for new credentials.
    if (result.refusal === 'unavailable') {
      await reply
        .code(503)
        .send({ error: { code: 'PSYNC_S2001', message: 'The service is busy; please try again' } });
      return undefined;
    }
    await reply.code(401).send({ error: { code: 'PSYNC_S2101', message: 'Invalid or expired token' } });
    return undefined;
  }
  const { claims } = result.caller;
  if (claims.role !== 'authenticated' || typeof claims.sub !== 'string' || claims.sub === '') {
    await reply
      .code(401)
      .send({ error: { code: 'PSYNC_S2101', message: 'A signed-in member token is required' } });
    return undefined;
  }
  return claims as JwtClaims & { sub: string };
}

export function registerSyncRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  options: SyncStreamOptions,
): () => void {
  const { rules, replicator } = options;
  const keepaliveMs = options.keepaliveMs ?? KEEPALIVE_MS;
  /** Streams open now, so shutdown and ended sessions can close them. */
  const open = new Set<{ userId: string; sessionId: string | undefined; end: () => void }>();

  const onSessionsEnded = ({ userId, sessionIds }: { userId: string; sessionIds: string[] | 'all' }) => {
    for (const s of open) {
      if (s.userId !== userId) continue;
      if (sessionIds === 'all' || (s.sessionId !== undefined && sessionIds.includes(s.sessionId))) s.end();
    }
  };
  ctx.events.on('sessions-ended', onSessionsEnded);

  /** A write checkpoint was made for this member's client: that client's streams send a checkpoint carrying it. */
  const writeCheckpoints = new Map<string, Set<(clientId: string, checkpoint: string) => void>>();

  const stopWriteCheckpoints = ctx.bus.on('sync-write-checkpoint', (m) => {
    for (const wake of writeCheckpoints.get(m.userId) ?? []) wake(m.clientId, m.checkpoint);
  });

  app.get('/write-checkpoint2.json', async (request, reply) => handleWriteCheckpoint(request, reply));
  app.get('/write-checkpoint.json', async (request, reply) => handleWriteCheckpoint(request, reply));

  async function handleWriteCheckpoint(request: FastifyRequest, reply: FastifyReply) {
    const claims = await authenticate(ctx, request, reply);
    if (!claims) return reply;
    const query = z
      .object({
        client_id: z.string().min(1).max(200).regex(CLIENT_ID).optional(),
      })
      .safeParse(request.query);
    if (!query.success)
      return reply.code(400).send({ error: { message: 'client_id must be a short string' } });
    // Everything committed before this request (the client's uploads) is in the ops once flush resolves.
    await replicator.flush();
    const checkpoint = await saveWriteCheckpoint(ctx.db, claims.sub, query.data.client_id ?? '');
    for (const wake of writeCheckpoints.get(claims.sub) ?? []) wake(query.data.client_id ?? '', checkpoint);
    // The client's stream may be open on another server process.
    ctx.bus.publish('sync-write-checkpoint', {
      userId: claims.sub,
      clientId: query.data.client_id ?? '',
      checkpoint,
    });
    return { data: { write_checkpoint: checkpoint } };
  }

  app.post('/sync/stream', async (request, reply) => {
    const claims = await authenticate(ctx, request, reply);
    if (!claims) return reply;
    const body = streamRequestSchema.safeParse(request.body ?? {});
    if (!body.success) {
      return reply.code(400).send({
        error: {
          code: 'PSYNC_S2001',
          message: `Invalid sync request: ${body.error.issues[0]?.message ?? ''}`,
        },
      });
    }
    let resolver: BucketResolver;
    try {
      resolver = createBucketResolver(
        rules,
        claims,
        body.data.parameters ?? {},
        body.data.streams?.include_defaults ?? true,
      );
    } catch (e) {
      return reply.code(400).send({ error: { code: 'PSYNC_S2001', message: (e as Error).message } });
    }
    reply.hijack();
    await runStream(request, reply, claims, body.data, resolver);
  });

  async function runStream(
    request: FastifyRequest,
    reply: FastifyReply,
    claims: JwtClaims & { sub: string },
    body: z.infer<typeof streamRequestSchema>,
    resolver: BucketResolver,
  ) {
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'application/x-ndjson',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    const userId = claims.sub;
    const clientId = body.client_id ?? '';
    const positions = new Map<string, string>((body.buckets ?? []).map((b) => [b.name, b.after]));
    let sent = new Map<string, BucketChecksum>();
    let sentWriteCheckpoint: string | undefined;
    let closed = false;
    let dirty = true;
    let wake: (() => void) | undefined;
    const signal = () => {
      dirty = true;
      wake?.();
    };
    const end = () => {
      if (closed) return;
      closed = true;
      wake?.();
      raw.end();
    };
    const entry = { userId, sessionId: claims.session_id, end };
    open.add(entry);
    // Bucket sets and write checkpoints are re-read only when something they depend on changed.
    let resolveBuckets = true;
    let readWriteCheckpoint = true;
    /** The buckets this stream syncs and the parameter lookups that decided them. */
    let streamBuckets = new Set<string>();
    let streamLookups = new Set<string>();
    /** The last checkpoint's op id: every op of the stream's buckets up to it has been sent. */
    let sentHead: bigint | undefined;
    /**
     * Batches committed since, in commit order, holding only this stream's buckets. While they follow on
     * from sentHead without a gap, the next checkpoint is sent from them with no database read (with
     * many streams open that is most of the work of a change on PGlite's one connection).
     */
    let followed: Followed[] = [];
    let followBroken = false;
    const follow = (batch: CommittedBatch) => {
      if (followBroken) return;
      if (batch.base === undefined || batch.head === undefined || followed.length >= MAX_FOLLOWED) {
        followBroken = true;
        followed = [];
        return;
      }
      const buckets = new Map<string, BucketState>();
      for (const [b, state] of batch.buckets) if (streamBuckets.has(b)) buckets.set(b, state);
      const last = followed.at(-1);
      const base = BigInt(batch.base);
      // Runs of batches that touch none of the stream's buckets fold into one entry.
      if (last && last.buckets.size === 0 && buckets.size === 0 && last.head === base) {
        last.head = BigInt(batch.head);
      } else {
        followed.push({ base, head: BigInt(batch.head), buckets });
      }
    };
    const onCommitted = (batch: CommittedBatch) => {
      follow(batch);
      if (batch.parametersChanged) {
        const mine = batch.lookups === undefined || [...batch.lookups].some((l) => streamLookups.has(l));
        if (mine) {
          resolveBuckets = true;
          return signal();
        }
      }
      for (const b of batch.buckets.keys()) if (streamBuckets.has(b)) return signal();
    };
    replicator.on('committed', onCommitted);
    const myWriteCheckpoints = writeCheckpoints.get(userId) ?? new Set();
    writeCheckpoints.set(userId, myWriteCheckpoints);
    /** The newest write checkpoint made for this stream's client since the last one sent, if any. */
    let madeWriteCheckpoint: string | undefined;
    const onWriteCheckpoint = (forClient: string, checkpoint: string) => {
      if (!clientId || forClient !== clientId) return;
      if (madeWriteCheckpoint === undefined || BigInt(checkpoint) > BigInt(madeWriteCheckpoint))
        madeWriteCheckpoint = checkpoint;
      readWriteCheckpoint = true;
      signal();
    };
    myWriteCheckpoints.add(onWriteCheckpoint);
    raw.on('close', () => {
      closed = true;
      wake?.();
    });

    const exp = typeof claims.exp === 'number' ? claims.exp * 1000 : undefined;
    const sendKeepalive = () => {
      const left = exp === undefined ? 3600 : Math.max(0, Math.floor((exp - Date.now()) / 1000));
      void write({ token_expires_in: left });
    };
    const keepalive = setInterval(sendKeepalive, keepaliveMs);
    // The stream ends when the token does; the client reconnects with fresh credentials.
    const expiry = exp === undefined ? undefined : setTimeout(end, Math.max(0, exp - Date.now()));

    async function write(line: unknown): Promise<void> {
      await writeText(`${JSON.stringify(line)}\n`);
    }

    async function writeText(text: string): Promise<void> {
      if (closed) return;
      if (!raw.write(text)) {
        // Wait for the socket to drain (or close), removing both listeners whichever comes first.
        await new Promise<void>((resolve) => {
          const done = () => {
            raw.off('drain', done);
            raw.off('close', done);
            resolve();
          };
          raw.on('drain', done);
          raw.on('close', done);
        });
      }
    }

    let buckets: ResolvedBucket[] = [];
    let writeCheckpoint: string | undefined;
    try {
      let first = true;
      while (!closed) {
        if (!dirty) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
          continue;
        }
        dirty = false;
        const priorities = () => new Map(buckets.map((b) => [b.bucket, b.priority]));
        // From memory: the batches since the last checkpoint, when nothing else changed and none is missing;
        // a write checkpoint made meanwhile goes with them when they reach it (it is the head at the time, and
        // this process's batches up to it were all followed), else the database is read.
        if (
          !first &&
          !resolveBuckets &&
          (!readWriteCheckpoint || madeWriteCheckpoint !== undefined) &&
          sentHead !== undefined &&
          !followBroken
        ) {
          const run = followed.filter((f) => f.head > sentHead!);
          const gapless = run.every((f, i) => f.base === (i === 0 ? sentHead : run[i - 1]?.head));
          const reached = run.at(-1)?.head ?? sentHead;
          if (gapless && (madeWriteCheckpoint === undefined || BigInt(madeWriteCheckpoint) <= reached)) {
            followed = [];
            if (madeWriteCheckpoint !== undefined) {
              writeCheckpoint = madeWriteCheckpoint;
              madeWriteCheckpoint = undefined;
              readWriteCheckpoint = false;
            }
            const last = run.at(-1);
            if (!last && writeCheckpoint === sentWriteCheckpoint) continue;
            const touched = new Map<string, { state: BucketState; ops: StoredOp[] }>();
            for (const f of run) {
              for (const [bucket, state] of f.buckets) {
                const t = touched.get(bucket) ?? { state, ops: [] };
                t.state = state;
                t.ops.push(...state.ops);
                touched.set(bucket, t);
              }
            }
            const head = String(reached);
            sentHead = reached;
            if (touched.size === 0 && writeCheckpoint === sentWriteCheckpoint) continue;
            const priority = priorities();
            // One write for the whole checkpoint: the client gets it in one chunk.
            const lines = [
              JSON.stringify({
                checkpoint_diff: {
                  last_op_id: head,
                  updated_buckets: [...touched].map(([bucket, t]) => ({
                    bucket,
                    checksum: t.state.checksum,
                    priority: priority.get(bucket) ?? PRIORITY,
                    count: t.state.count,
                  })),
                  removed_buckets: [],
                  ...(writeCheckpoint ? { write_checkpoint: writeCheckpoint } : {}),
                },
              }),
            ];
            for (const [bucket, t] of touched) {
              let after = positions.get(bucket) ?? '0';
              for (let i = 0; i < t.ops.length; i += OPS_PER_LINE) {
                const page = t.ops.slice(i, i + OPS_PER_LINE);
                const next = page.at(-1)?.op_id ?? after;
                lines.push(
                  JSON.stringify({
                    data: {
                      bucket,
                      after,
                      next_after: next,
                      has_more: i + OPS_PER_LINE < t.ops.length,
                      data: page,
                    },
                  }),
                );
                after = next;
              }
              positions.set(bucket, after);
              sent.set(bucket, { bucket, checksum: t.state.checksum, count: t.state.count });
            }
            lines.push(JSON.stringify({ checkpoint_complete: { last_op_id: head } }));
            sentWriteCheckpoint = writeCheckpoint;
            await writeText(`${lines.join('\n')}\n`);
            continue;
          }
        }
        if (resolveBuckets) {
          resolveBuckets = false;
          const used = new Set<string>();
          buckets = await resolver.resolve((lookups) => {
            for (const l of lookups) used.add(l);
            return findParameterSets(ctx.db, lookups);
          });
          streamLookups = used;
        }
        // Batches read from here on are filtered by the current buckets.
        streamBuckets = new Set(buckets.map((b) => b.bucket));
        if (readWriteCheckpoint) {
          readWriteCheckpoint = false;
          madeWriteCheckpoint = undefined;
          writeCheckpoint = clientId ? await findWriteCheckpoint(ctx.db, userId, clientId) : undefined;
        }
        const names = buckets.map((b) => b.bucket);
        const { head, checksums } = await readCheckpoint(ctx.db, names);
        // The checkpoint read holds every batch up to head; later ones are followed from it.
        sentHead = BigInt(head);
        followed = followed.filter((f) => f.head > sentHead!);
        followBroken = false;
        const priority = priorities();
        const describe = (c: BucketChecksum) => ({
          bucket: c.bucket,
          checksum: c.checksum,
          priority: priority.get(c.bucket) ?? PRIORITY,
          count: c.count,
        });
        let toSend: string[];
        if (first) {
          await write({
            checkpoint: {
              last_op_id: head,
              buckets: [...checksums.values()].map(describe),
              ...(writeCheckpoint ? { write_checkpoint: writeCheckpoint } : {}),
            },
          });
          toSend = names;
        } else {
          const updated = [...checksums.values()].filter((c) => {
            const before = sent.get(c.bucket);
            return !before || before.checksum !== c.checksum || before.count !== c.count;
          });
          const removed = [...sent.keys()].filter((b) => !checksums.has(b));
          if (updated.length === 0 && removed.length === 0 && writeCheckpoint === sentWriteCheckpoint)
            continue;
          await write({
            checkpoint_diff: {
              last_op_id: head,
              updated_buckets: updated.map(describe),
              removed_buckets: removed,
              ...(writeCheckpoint ? { write_checkpoint: writeCheckpoint } : {}),
            },
          });
          for (const b of removed) positions.delete(b);
          toSend = updated.map((c) => c.bucket);
        }
        for (const bucket of toSend) {
          let after = positions.get(bucket) ?? '0';
          for (;;) {
            if (closed) break;
            const page = await readOpsJson(ctx.db, bucket, after, head, OPS_PER_LINE);
            if (page.last === undefined) break;
            // The op array is the database's JSON text, put into the line as it is.
            const fields = JSON.stringify({
              bucket,
              after,
              next_after: page.last,
              has_more: page.hasMore,
            }).slice(0, -1);
            await writeText(`{"data":${fields},"data":${page.json}}}\n`);
            after = page.last;
            if (!page.hasMore) break;
            // A PGlite query resolves without a turn of the event loop, so a long download would hold every
            // other request (and, in one process, the client reading it) until its last page: yield.
            await new Promise((resolve) => setImmediate(resolve));
          }
          positions.set(bucket, after);
        }
        await write({ checkpoint_complete: { last_op_id: head } });
        sent = checksums;
        sentWriteCheckpoint = writeCheckpoint;
        first = false;
      }
    } catch (e) {
      request.log.error({ err: e }, 'sync stream failed');
    } finally {
      clearInterval(keepalive);
      if (expiry) clearTimeout(expiry);
      replicator.off('committed', onCommitted);
      myWriteCheckpoints.delete(onWriteCheckpoint);
      if (myWriteCheckpoints.size === 0) writeCheckpoints.delete(userId);
      open.delete(entry);
      end();
    }
  }

  return () => {
    ctx.events.off('sessions-ended', onSessionsEnded);
    stopWriteCheckpoints();
    for (const s of open) s.end();
  };
}
