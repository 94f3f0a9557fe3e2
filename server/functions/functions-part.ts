// The /functions/v1/<name> host: mounts supabase/functions/<name>/index.ts (a web-standard
// Request -> Response handler, the same module Deno runs on Supabase) inside this process.
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { readBearer, resolveCaller } from '../caller/caller.ts';
import type { PasswordCheckResult } from '../auth/password-check.ts';
import { readFunctionSettings } from './function-settings.ts';

export type FunctionHandler = (req: Request) => Response | Promise<Response>;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FUNCTIONS_DIR = path.join(root, 'supabase/functions');
const CONFIG_TOML = path.join(root, 'supabase/config.toml');

const FUNCTION_NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const MAX_BODY_BYTES = 1024 * 1024;
/** How long a handler may take to produce its Response (a streamed body may take longer). */
const HANDLER_TIMEOUT_MS = 60_000;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade']);

/** The global key through which supabase/functions/_shared/env.ts asks the host for this request's env. */
export const FUNCTION_ENV_PROVIDER = Symbol.for('heartsync.functions.env');

// Env is scoped to the handler's async context, never written to process.env, so no other part sees
// the service role key and two servers in one process (tests) keep their own values.
const envStore = new AsyncLocalStorage<Readonly<Record<string, string>>>();
(globalThis as Record<symbol, unknown>)[FUNCTION_ENV_PROVIDER] = () => envStore.getStore();

/**
 * The global key through which supabase/functions/_shared/password.ts finds the host's in-process
 * password check. On Supabase there is none and the function signs in instead; here that sign-in would
 * come from 127.0.0.1 and share one per-address limit among all members (see decision 0029).
 */
export const FUNCTION_AUTH_PROVIDER = Symbol.for('heartsync.functions.auth');

export interface FunctionHostAuth {
  /** Re-checks a member's password, counted like a sign-in from the function caller's address. */
  checkPassword(userId: string, password: string): Promise<PasswordCheckResult>;
}

const authStore = new AsyncLocalStorage<FunctionHostAuth>();
(globalThis as Record<symbol, unknown>)[FUNCTION_AUTH_PROVIDER] = () => authStore.getStore();

export interface FunctionsOptions {
  /** Folder holding <name>/index.ts; defaults to supabase/functions (tests pass their own). */
  dir?: string;
  /** supabase/config.toml, read for `verify_jwt = false`; defaults to the repository's. */
  configToml?: string;
  /** Extra env for the handlers (merged over the defaults). */
  env?: Record<string, string>;
  /** Time a handler has to answer before the host gives up with 504 (default 60 s). */
  timeoutMs?: number;
}

export function createFunctionsPart(options: FunctionsOptions = {}) {
  const dir = options.dir ?? FUNCTIONS_DIR;
  return async function registerFunctions(app: FastifyInstance, ctx: AppContext): Promise<void> {
    const settings = readFunctionSettings(options.configToml ?? CONFIG_TOML);
    const handlers = new Map<string, Promise<FunctionHandler>>();

    function findHandler(name: string): Promise<FunctionHandler> | undefined {
      if (!FUNCTION_NAME.test(name)) return undefined;
      const file = path.join(dir, name, 'index.ts');
      if (!handlers.has(name)) {
        if (!fs.existsSync(file)) return undefined;
        const loading = loadHandler(file);
        loading.catch(() => {}); // awaited (and reported) by the request; not an unhandled rejection meanwhile
        handlers.set(name, loading);
      }
      return handlers.get(name);
    }

    /** The base URL the functions use to call back into this server: loopback when we know the port. */
    function getInternalUrl(): string {
      const address = app.server.address() as AddressInfo | string | null;
      if (!address || typeof address === 'string') return ctx.config.publicUrl;
      const host = ['0.0.0.0', '::', ''].includes(address.address)
        ? '127.0.0.1'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
      return `http://${host}:${address.port}`;
    }

    function getEnv(): Record<string, string> {
      return {
        SUPABASE_URL: getInternalUrl(),
        SUPABASE_ANON_KEY: ctx.keys.anonKey,
        SUPABASE_SERVICE_ROLE_KEY: ctx.keys.serviceRoleKey,
        ACCOUNT_DELETION_GRACE_DAYS: String(ctx.config.DELETION_GRACE_DAYS),
        // Payments (issue 15): only when the operator configured them.
        ...(ctx.config.STRIPE_SECRET_KEY ? { STRIPE_SECRET_KEY: ctx.config.STRIPE_SECRET_KEY } : {}),
        ...(ctx.config.STRIPE_WEBHOOK_SECRET
          ? { STRIPE_WEBHOOK_SECRET: ctx.config.STRIPE_WEBHOOK_SECRET }
          : {}),
        ...(ctx.config.STRIPE_API_URL ? { STRIPE_API_URL: ctx.config.STRIPE_API_URL } : {}),
        ...(ctx.config.PLANS_JSON ? { PLANS_JSON: ctx.config.PLANS_JSON } : {}),
        // The language model behind Lovy (issue 16): without it the built-in coach answers.
        ...(ctx.config.OPENAI_BASE_URL ? { OPENAI_BASE_URL: ctx.config.OPENAI_BASE_URL } : {}),
        ...(ctx.config.OPENAI_API_KEY ? { OPENAI_API_KEY: ctx.config.OPENAI_API_KEY } : {}),
        OPENAI_MODEL: ctx.config.OPENAI_MODEL,
        ...(ctx.config.OPENAI_TTS_MODEL ? { OPENAI_TTS_MODEL: ctx.config.OPENAI_TTS_MODEL } : {}),
        // Calls (issue 18): Stream when both keys are set, and the WebRTC calls' ICE servers.
        ...(ctx.config.STREAM_API_KEY ? { STREAM_API_KEY: ctx.config.STREAM_API_KEY } : {}),
        ...(ctx.config.STREAM_API_SECRET ? { STREAM_API_SECRET: ctx.config.STREAM_API_SECRET } : {}),
        ...(ctx.config.ICE_SERVERS ? { ICE_SERVERS: ctx.config.ICE_SERVERS } : {}),
        PUBLIC_URL: ctx.config.publicUrl,
        // The demo checkout: a demo instance without Stripe, never in production.
        ...(ctx.config.demoPayments ? { DEMO_PAYMENTS: '1' } : {}),
        ...options.env,
      };
    }

    async function invoke(req: FastifyRequest, reply: FastifyReply) {
      const params = req.params as { name?: string };
      const name = params.name ?? '';
      const handlerPromise = findHandler(name);
      if (!handlerPromise)
        return reply.code(404).send({ code: 'NOT_FOUND', message: 'Requested function was not found' });
      // Like Supabase's gateway (verify_jwt, on by default): a valid API key or access token is required.
      if (settings.get(name)?.verifyJwt !== false && req.method !== 'OPTIONS') {
        const token = readBearer(req.headers.authorization);
        if (!token) return reply.code(401).send({ code: 401, message: 'Missing authorization header' });
        const result = await resolveCaller(ctx, token);
        if (!result.ok)
          return result.refusal === 'unavailable'
            ? reply.code(503).send({ code: 503, message: 'The service is busy; please try again' })
            : reply.code(401).send({ code: 401, message: 'Invalid JWT' });
      }
      let handler: FunctionHandler;
      try {
        handler = await handlerPromise;
      } catch (err) {
        handlers.delete(name);
        req.log.error({ err, function: name }, 'function failed to load');
        return reply.code(500).send({ code: 'BOOT_ERROR', message: 'Function failed to start' });
      }
      const request = toWebRequest(req, ctx.config.publicUrl);
      let response: Response;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), options.timeoutMs ?? HANDLER_TIMEOUT_MS);
      });
      try {
        const clientIp = req.ip;
        const hostAuth: FunctionHostAuth = {
          checkPassword: (userId, password) => ctx.auth.checkPassword(userId, password, clientIp),
        };
        const outcome = await Promise.race([
          envStore.run(getEnv(), async () => authStore.run(hostAuth, async () => handler(request))),
          timeout,
        ]);
        if (outcome === 'timeout') {
          req.log.error({ function: name }, 'function timed out');
          return reply.code(504).send({ code: 'TIMEOUT', message: 'The function took too long' });
        }
        if (!(outcome instanceof Response)) throw new Error('handler did not return a Response');
        response = outcome;
      } catch (err) {
        req.log.error({ err, function: name }, 'function threw');
        return reply.code(500).send({ code: 'FUNCTION_ERROR', message: 'The function failed' });
      } finally {
        clearTimeout(timer);
      }
      reply.code(response.status);
      response.headers.forEach((value, key) => {
        if (!HOP_BY_HOP.has(key)) reply.header(key, value);
      });
      if (!response.body || req.method === 'HEAD') return reply.send();
      return reply.send(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>));
    }

    await app.register(
      async (scope) => {
        // Handlers read the body themselves, so it is passed on as the bytes that arrived.
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser(
          '*',
          { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES },
          (_req, body, done) => done(null, body),
        );
        scope.setErrorHandler((err, req, reply) => {
          const status = (err as { statusCode?: number }).statusCode;
          if (typeof status === 'number' && status >= 400 && status < 500)
            return reply.code(status).send({ code: status, message: (err as Error).message });
          req.log.error({ err }, 'functions host failed');
          return reply.code(500).send({ code: 'FUNCTION_ERROR', message: 'The function failed' });
        });
        scope.all('/:name', invoke);
        scope.all('/:name/*', invoke);
      },
      { prefix: '/functions/v1' },
    );
  };
}

export const registerFunctions = createFunctionsPart();

async function loadHandler(file: string): Promise<FunctionHandler> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown; handler?: unknown };
  const handler = mod.default ?? mod.handler;
  if (typeof handler !== 'function') throw new Error(`${file} exports no handler (default or "handler")`);
  return handler as FunctionHandler;
}

function toWebRequest(req: FastifyRequest, publicUrl: string): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || HOP_BY_HOP.has(key)) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && Buffer.isBuffer(req.body);
  return new Request(`${publicUrl}${req.url}`, {
    method: req.method,
    headers,
    ...(hasBody ? { body: new Uint8Array(req.body as Buffer) } : {}),
  });
}
