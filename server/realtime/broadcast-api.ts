// The HTTP side of broadcast: POST /realtime/v1/api/broadcast (realtime-js falls back to it when a
// channel is not joined yet) and POST /realtime/v1/api/broadcast/<topic>/events/<event> (httpSend).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { JwtClaims } from '../auth/keys.ts';
import type { AppContext } from '../context.ts';
import { authorizeJoin } from './authorize-join.ts';
import { REALTIME_LIMITS } from './limits.ts';
import { RateLimiter } from './rate-limiter.ts';
import { ENCODING_BINARY, ENCODING_JSON } from './protocol.ts';
import type { RealtimeHub } from './realtime-hub.ts';
import { findTopicAccess, type TopicAccess } from './topics.ts';

const messagesBodySchema = z.object({
  messages: z
    .array(
      z.object({
        topic: z.string().min(1).max(200),
        event: z.string().min(1).max(255),
        payload: z.unknown().optional(),
        private: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(100),
});

const eventParamsSchema = z.object({
  topic: z.string().min(1).max(200),
  event: z.string().min(1).max(255),
});

/** The claims a request acts with: its bearer token when there is one, else its API key; undefined = 401. */
async function findRequestClaims(ctx: AppContext, req: FastifyRequest): Promise<JwtClaims | undefined> {
  const apikey = req.headers['apikey'];
  if (typeof apikey !== 'string' || apikey.length > REALTIME_LIMITS.maxTokenLength) return undefined;
  try {
    const keyClaims = await ctx.verifyToken(apikey);
    if (keyClaims.role !== 'anon' && keyClaims.role !== 'service_role') return undefined;
    const authorization = req.headers['authorization'];
    if (typeof authorization !== 'string') return keyClaims;
    const match = /^Bearer (\S{1,8192})$/i.exec(authorization);
    if (!match) return undefined;
    return await ctx.verifyToken(match[1]!);
  } catch {
    return undefined;
  }
}

export async function registerBroadcastApi(
  app: FastifyInstance,
  ctx: AppContext,
  hub: RealtimeHub,
): Promise<void> {
  const onDbError = (e: unknown) => ctx.log.debug({ err: e }, 'realtime: membership check failed');

  // A budget per client address, so HTTP is no way around the socket's rate limit.
  const limiters = new Map<string, { limiter: RateLimiter; lastUsed: number }>();
  const prune = setInterval(() => {
    const cutoff = Date.now() - 60_000;
    for (const [ip, entry] of limiters) if (entry.lastUsed < cutoff) limiters.delete(ip);
  }, 30_000);
  prune.unref();
  app.addHook('onClose', async () => clearInterval(prune));
  function isRateLimited(req: FastifyRequest): boolean {
    let entry = limiters.get(req.ip);
    if (!entry) {
      entry = {
        limiter: new RateLimiter(REALTIME_LIMITS.httpBroadcastsPerSecond, REALTIME_LIMITS.httpBroadcastBurst),
        lastUsed: 0,
      };
      limiters.set(req.ip, entry);
    }
    entry.lastUsed = Date.now();
    return !entry.limiter.tryTake();
  }

  /** Refuses (and answers) unless the claims may join every topic; returns the accesses when allowed. */
  async function authorizeTopics(
    reply: FastifyReply,
    claims: JwtClaims,
    topics: string[],
  ): Promise<TopicAccess[] | undefined> {
    const accesses: TopicAccess[] = [];
    for (const topic of topics) {
      const access = findTopicAccess(`realtime:${topic}`);
      if (!access) {
        await reply.code(404).send({ message: `Unknown channel: ${topic.slice(0, 100)}` });
        return undefined;
      }
      const decision = await authorizeJoin(ctx.db, access, claims, onDbError);
      if (!decision.ok) {
        await reply.code(403).send({ message: decision.reason });
        return undefined;
      }
      accesses.push(access);
    }
    return accesses;
  }

  await app.register(async (scope) => {
    // httpSend posts raw bytes as application/octet-stream; kept as a Buffer for binary broadcasts.
    scope.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    );

    scope.post(
      '/realtime/v1/api/broadcast',
      { bodyLimit: REALTIME_LIMITS.maxMessageBytes },
      async (req, reply) => {
        if (isRateLimited(req))
          return reply.code(429).header('retry-after', '1').send({ message: 'Too many broadcasts' });
        const claims = await findRequestClaims(ctx, req);
        if (!claims)
          return reply.code(401).send({ message: 'A valid apikey (and bearer token, if any) is required' });
        const parsed = messagesBodySchema.safeParse(req.body);
        if (!parsed.success)
          return reply.code(400).send({ message: 'Expected { messages: [{ topic, event, payload }] }' });
        const messages = parsed.data.messages;
        if (!(await authorizeTopics(reply, claims, [...new Set(messages.map((m) => m.topic))]))) return reply;
        for (const m of messages) {
          hub.broadcast(`realtime:${m.topic}`, {
            userEvent: m.event,
            encoding: ENCODING_JSON,
            payload: Buffer.from(JSON.stringify(m.payload ?? {}), 'utf8'),
          });
        }
        return reply.code(202).send();
      },
    );

    scope.post(
      '/realtime/v1/api/broadcast/:topic/events/:event',
      { bodyLimit: REALTIME_LIMITS.maxMessageBytes },
      async (req, reply) => {
        if (isRateLimited(req))
          return reply.code(429).header('retry-after', '1').send({ message: 'Too many broadcasts' });
        const claims = await findRequestClaims(ctx, req);
        if (!claims)
          return reply.code(401).send({ message: 'A valid apikey (and bearer token, if any) is required' });
        const params = eventParamsSchema.safeParse(req.params);
        if (!params.success) return reply.code(400).send({ message: 'Invalid topic or event' });
        if (!(await authorizeTopics(reply, claims, [params.data.topic]))) return reply;
        const payload = Buffer.isBuffer(req.body)
          ? { encoding: ENCODING_BINARY, payload: req.body }
          : { encoding: ENCODING_JSON, payload: Buffer.from(JSON.stringify(req.body ?? {}), 'utf8') };
        hub.broadcast(`realtime:${params.data.topic}`, {
          userEvent: params.data.event,
          encoding: payload.encoding as 0 | 1,
          payload: payload.payload,
        });
        return reply.code(202).send();
      },
    );
  });
}
