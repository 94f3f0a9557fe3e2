// POST /sync/stream: one member's NDJSON sync stream (checkpoint, data, checkpoint_complete, then diffs),
// and GET /write-checkpoint2.json, as the PowerSync client expects them. The transport: authentication,
// the wake-ups, database reads and writes to the socket; what to send is checkpoint-state.ts's.
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
} from './bucket-storage.ts';
import type { BatchOrder } from './batch-order.ts';
import { OPS_PER_LINE, StreamCheckpointState } from './checkpoint-state.ts';
import type { CommittedBatch, Replicator } from './replicator.ts';
import { createBucketResolver, type BucketResolver, type LoadedRules } from './rules.ts';

const KEEPALIVE_MS = 20_000;
/** What a process whose sync rules another process replaced answers (decision 0088): the client asks again. */
const SUPERSEDED = {
  error: {
    code: 'PSYNC_S2001',
    message: 'This server process runs sync rules that were replaced; please try again',
  },
};
/** How long a write checkpoint waits for the sync service's start before it answers 503 (decision 0088). */
const START_WAIT_MS = 3_000;

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
  /** Every committed batch, this process's and the others', in head order (batch-order.ts). */
  batches: BatchOrder;
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
  const { rules, replicator, batches } = options;
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
  // Rules changed by another process: this one's streams end, and the clients connect again (elsewhere).
  const onSuperseded = () => {
    for (const s of open) s.end();
  };
  replicator.on('superseded', onSuperseded);

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
    if (replicator.superseded) return reply.code(503).header('retry-after', '5').send(SUPERSEDED);
    if (!replicator.ready) {
      // The tables are being copied (first start, new rules): the client asks again after its retry delay.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        replicator.whenReady(),
        new Promise((resolve) => {
          timer = setTimeout(resolve, START_WAIT_MS);
        }),
      ]);
      clearTimeout(timer);
      if (!replicator.ready)
        return reply
          .code(503)
          .header('retry-after', '5')
          .send({
            error: { code: 'PSYNC_S2001', message: 'The sync service is starting; please try again' },
          });
    }
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
    if (replicator.superseded) return reply.code(503).header('retry-after', '5').send(SUPERSEDED);
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
    const state = new StreamCheckpointState(
      clientId,
      (body.buckets ?? []).map((b) => [b.name, b.after] as const),
    );
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
    const onCommitted = (batch: CommittedBatch) => {
      if (state.committed(batch)) signal();
    };
    batches.on('committed', onCommitted);
    const myWriteCheckpoints = writeCheckpoints.get(userId) ?? new Set();
    writeCheckpoints.set(userId, myWriteCheckpoints);
    const onWriteCheckpoint = (forClient: string, checkpoint: string) => {
      if (state.writeCheckpointMade(forClient, checkpoint)) signal();
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

    try {
      // The client counts itself connected once a line arrives: one now, then the timer's.
      if (!replicator.ready) sendKeepalive();
      while (!replicator.ready && !closed) {
        // The tables are being copied (first start, new rules): a checkpoint now would lack the rows of the
        // tables not copied yet, and the client would drop them. The stream waits, kept alive (decision 0088).
        await new Promise<void>((resolve) => {
          wake = resolve;
          void replicator.whenReady().then(resolve);
        });
        wake = undefined;
      }
      while (!closed) {
        if (!dirty) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
          continue;
        }
        dirty = false;
        const fromMemory = state.fromMemory();
        if (fromMemory === null) continue;
        if (fromMemory !== undefined) {
          await writeText(fromMemory);
          continue;
        }
        if (state.takeResolve()) {
          const used = new Set<string>();
          const buckets = await resolver.resolve((lookups) => {
            for (const l of lookups) used.add(l);
            return findParameterSets(ctx.db, lookups);
          });
          state.setBuckets(buckets, used);
        }
        const names = state.bucketsToRead();
        if (state.takeWriteCheckpointRead()) {
          state.setWriteCheckpoint(
            clientId ? await findWriteCheckpoint(ctx.db, userId, clientId) : undefined,
          );
        }
        const { head, checksums } = await readCheckpoint(ctx.db, names);
        const plan = state.planFromRead(head, checksums);
        if (!plan) continue;
        await write(plan.line);
        for (const bucket of plan.toSend) {
          let after = state.position(bucket);
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
          state.setPosition(bucket, after);
        }
        await write({ checkpoint_complete: { last_op_id: head } });
        state.completed(checksums);
      }
    } catch (e) {
      request.log.error({ err: e }, 'sync stream failed');
    } finally {
      clearInterval(keepalive);
      if (expiry) clearTimeout(expiry);
      batches.off('committed', onCommitted);
      myWriteCheckpoints.delete(onWriteCheckpoint);
      if (myWriteCheckpoints.size === 0) writeCheckpoints.delete(userId);
      open.delete(entry);
      end();
    }
  }

  return () => {
    ctx.events.off('sessions-ended', onSessionsEnded);
    replicator.off('superseded', onSuperseded);
    stopWriteCheckpoints();
    for (const s of open) s.end();
  };
}
