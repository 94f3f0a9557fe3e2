// GET /app-config.json: what the browser app needs to start (the public API key, the operator's name and
// contact). No backend URL: the app talks to the origin it was loaded from, whatever address that is
// (decision 0053); PUBLIC_URL is only for links that leave the app (e-mails).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

export function registerAppConfig(app: FastifyInstance, ctx: Pick<AppContext, 'config' | 'keys'>): void {
  app.get('/app-config.json', async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return {
      anonKey: ctx.keys.anonKey,
      operatorName: ctx.config.OPERATOR_NAME,
      operatorContact: ctx.config.OPERATOR_CONTACT,
    };
  });
}
