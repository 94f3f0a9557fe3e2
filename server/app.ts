// Builds the one Fastify app: security headers, health, then each part in a visible order, then the PWA.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';
import { createAuthServices } from './auth/auth-services.ts';
import { createTokenVerifier } from './auth/verify-token.ts';
import { registerAppConfig } from './http/app-config.ts';
import { registerNulGuard } from './http/nul-guard.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerAppServing } from './http/serve-app.ts';
import { createMailer } from './mail/mailer.ts';
import { describeSync } from './sync/sync-part.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface BuildAppOptions {
  /** Folder of the built PWA; defaults to dist/. */
  distDir?: string;
  logger?: boolean | object;
}

const SECRET_PARAMS = /([?&](?:token|access_token|refresh_token|apikey|code)=)[^&#]*/gi;

/** The URL with secret query values replaced, for logs. */
export function redactQuery(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

export type AppParts = Array<(app: FastifyInstance, ctx: AppContext) => Promise<void>>;

export async function buildApp(
  ctx: Omit<AppContext, 'log' | 'mailer' | 'auth' | 'verifyToken'>,
  parts: AppParts,
  options: BuildAppOptions = {},
): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const app = Fastify({
    logger: options.logger ?? {
      level: ctx.config.LOG_LEVEL,
      // Mailed links carry single-use tokens in the query string: never write them to the log.
      serializers: {
        req: (req: { method: string; url: string; ip?: string }) => ({
          method: req.method,
          url: redactQuery(req.url),
          remoteAddress: req.ip,
        }),
      },
    },
    trustProxy: ctx.config.trustedProxies.length > 0 ? ctx.config.trustedProxies : false,
    bodyLimit: 1024 * 1024,
  });
  // The services every part shares are built here, once, before any part: no part replaces another's.
  const withLog = { ...ctx, log: app.log };
  const auth = createAuthServices(withLog);
  const full: AppContext = {
    ...withLog,
    mailer: createMailer(withLog),
    auth,
    verifyToken: createTokenVerifier(ctx.keys, auth.sessions),
  };
  app.addHook('onClose', async () => {
    await full.mailer.close();
  });
  registerSecurityHeaders(app, ctx.config.backendOrigins);
  registerNulGuard(app);
  registerAppConfig(app, full);

  app.get('/health', async (_req, reply) => {
    const started = performance.now();
    try {
      await full.db.ping();
      return {
        status: 'ok',
        database: { kind: full.db.kind, ok: true, latency_ms: Math.round(performance.now() - started) },
        // Not ready while the sync service copies the tables (first start, new rules): streams wait meanwhile.
        ...(app.syncService ? { sync: describeSync(app.syncService.replicator) } : {}),
      };
    } catch (e) {
      return reply.code(503).send({
        status: 'degraded',
        database: { kind: full.db.kind, ok: false, error: (e as Error).message },
      });
    }
  });

  for (const part of parts) await part(app, full);
  await registerAppServing(app, options.distDir ?? path.join(root, 'dist'));
  return { app, ctx: full };
}
