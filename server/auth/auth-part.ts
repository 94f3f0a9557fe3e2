// The GoTrue-compatible auth service under /auth/v1 (the subset supabase-js uses): the scope's body parsing,
// errors and API-key gate here, the routes by group in routes-*.ts on the shared kit (auth-kit.ts). Its
// services (sessions, limits) are ctx.auth, built with ctx.verifyToken by buildApp. Wire formats follow
// @supabase/auth-js and GoTrue's docs.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { AuthHttpError, sendAuthError, validationFailed } from './errors.ts';
import { createAuthKit, getApiKey } from './auth-kit.ts';
import { registerAdminRoutes } from './routes-admin.ts';
import { registerLinkRoutes } from './routes-links.ts';
import { registerSessionRoutes } from './routes-sessions.ts';
import { registerUserRoutes } from './routes-user.ts';

/** Paths a browser opens from a mail or a client fetches before it has a key: no apikey asked. */
const OPEN_PATHS = new Set(['GET /auth/v1/verify', 'GET /auth/v1/.well-known/jwks.json']);

export async function registerAuth(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const kit = createAuthKit(ctx);
  const { keys } = ctx;

  await app.register(
    async (scope) => {
      // supabase-js posts `Content-Type: application/json` with no body on logout: read that as {}.
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
        const text = typeof body === 'string' ? body : body.toString('utf8');
        if (text.trim() === '') return done(null, {});
        try {
          done(null, JSON.parse(text) as unknown);
        } catch {
          done(validationFailed('Could not parse request body as JSON'), undefined);
        }
      });

      scope.setErrorHandler((err, req, reply) => {
        if (err instanceof AuthHttpError) return sendAuthError(reply, err);
        const status = (err as { statusCode?: number }).statusCode;
        if (typeof status === 'number' && status >= 400 && status < 500)
          return sendAuthError(reply, new AuthHttpError(status, 'validation_failed', (err as Error).message));
        req.log.error({ err }, 'auth request failed');
        return sendAuthError(reply, new AuthHttpError(500, 'unexpected_failure', 'Unexpected failure'));
      });

      scope.setNotFoundHandler((_req, reply) =>
        sendAuthError(reply, new AuthHttpError(404, 'not_found', 'Not found')),
      );

      // Like Supabase's gateway: every call names the project with its anon or service_role key.
      scope.addHook('onRequest', async (req) => {
        const path = req.url.split('?')[0] ?? '';
        if (OPEN_PATHS.has(`${req.method} ${path}`)) return;
        const apiKey = getApiKey(req);
        if (!apiKey) throw new AuthHttpError(401, 'no_api_key', 'No API key found in request');
        try {
          const claims = await keys.verify(apiKey);
          if (claims.role !== 'anon' && claims.role !== 'service_role') throw new Error('not an API key');
        } catch {
          throw new AuthHttpError(401, 'invalid_api_key', 'Invalid API key');
        }
      });

      scope.get('/settings', async () => ({
        external: { email: true, phone: false, anonymous_users: false },
        disable_signup: false,
        mailer_autoconfirm: false,
        phone_autoconfirm: false,
        sms_provider: '',
        saml_enabled: false,
      }));

      scope.get('/.well-known/jwks.json', async (_req, reply) => {
        reply.header('cache-control', 'public, max-age=600');
        return keys.jwks;
      });

      registerLinkRoutes(scope, kit);
      registerSessionRoutes(scope, kit);
      registerUserRoutes(scope, kit);
      registerAdminRoutes(scope, kit);
    },
    { prefix: '/auth/v1' },
  );
}
