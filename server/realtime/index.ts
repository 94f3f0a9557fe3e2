// The realtime part: /realtime/v1/websocket, a Supabase Realtime-compatible Phoenix socket (presence, broadcast).
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { JwtClaims } from '../auth/keys.ts';
import type { AppContext } from '../context.ts';
import { authorizeJoin } from './authorize-join.ts';
import { registerBroadcastApi } from './broadcast-api.ts';
import { REALTIME_LIMITS } from './limits.ts';
import type { Vsn } from './protocol.ts';
import { CLOSE_CODES, RealtimeConnection } from './realtime-connection.ts';
import { RealtimeHub } from './realtime-hub.ts';

declare module 'fastify' {
  interface FastifyRequest {
    realtimeApiClaims?: JwtClaims;
  }
}

/** NOTIFY channel of migration 0117: "<member id>,<member id>" when one blocks or reports the other. */
export const HIDDEN_PAIR_CHANNEL = 'heartsync_pair_hidden';

export async function registerRealtime(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // One @fastify/websocket per server: another part may have registered it already.
  if (!app.hasDecorator('websocketServer')) {
    await app.register(websocket, { options: { maxPayload: REALTIME_LIMITS.maxWirePayloadBytes } });
  }
  // Broadcasts and presence cross to the other server processes on the same PostgreSQL (decision 0052).
  const hub = new RealtimeHub(ctx.bus);
  await registerBroadcastApi(app, ctx, hub);

  const onSessionsEnded = ({ userId, sessionIds }: { userId: string; sessionIds: string[] | 'all' }) =>
    hub.endSessions(userId, sessionIds);
  ctx.events.on('sessions-ended', onSessionsEnded);

  // A block or report (0117 notifies every process) ends the pair's shared channels and presence at once.
  const stopHiddenPairs = await ctx.db.listen(HIDDEN_PAIR_CHANNEL, (payload) => {
    const [a, b] = payload.split(',');
    if (!a || !b) return;
    for (const s of hub.hidePair(a, b)) {
      void authorizeJoin(ctx.db, s.access, s.claims).then((decision) => {
        if (!decision.ok) s.peer.closeSubscription(s, decision.reason);
      });
    }
  });

  const idleSweep = setInterval(() => {
    const cutoff = Date.now() - REALTIME_LIMITS.idleTimeoutMs;
    for (const peer of hub.peers) {
      if (peer instanceof RealtimeConnection && peer.lastSeen < cutoff) peer.close(CLOSE_CODES.idle, 'idle');
    }
  }, 15_000);
  idleSweep.unref();

  app.addHook('onClose', async () => {
    clearInterval(idleSweep);
    ctx.events.off('sessions-ended', onSessionsEnded);
    await stopHiddenPairs();
    hub.close();
  });

  app.get(
    '/realtime/v1/websocket',
    {
      websocket: true,
      // Runs before the upgrade, so a missing or wrong API key is a plain 401 and no socket is opened.
      preValidation: async (req, reply) => {
        const query = req.query as Record<string, unknown>;
        const header = req.headers['apikey'];
        const apikey =
          typeof query['apikey'] === 'string' ? query['apikey'] : typeof header === 'string' ? header : '';
        const vsn = query['vsn'] ?? '1.0.0';
        if (vsn !== '1.0.0' && vsn !== '2.0.0') {
          return reply.code(400).send({ message: 'Unsupported protocol version (vsn): use 1.0.0 or 2.0.0' });
        }
        if (!apikey || apikey.length > REALTIME_LIMITS.maxTokenLength) {
          return reply.code(401).send({ message: 'An apikey query parameter is required' });
        }
        let claims: JwtClaims;
        try {
          claims = await ctx.verifyToken(apikey);
        } catch {
          return reply.code(401).send({ message: 'Invalid API key' });
        }
        if (claims.role !== 'anon' && claims.role !== 'service_role') {
          return reply.code(401).send({ message: 'The apikey must be the anon or service key' });
        }
        req.realtimeApiClaims = claims;
      },
    },
    (socket, req) => {
      const query = req.query as Record<string, unknown>;
      const vsn: Vsn = query['vsn'] === '2.0.0' ? '2.0.0' : '1.0.0';
      new RealtimeConnection(socket, hub, ctx, req.realtimeApiClaims!, vsn);
    },
  );
}
