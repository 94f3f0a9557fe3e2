// The PostgREST-compatible API under /rest/v1: tables and views of schema public and rpc/<fn>, each
// request in one transaction as the caller's role with request.jwt.claims set, so RLS decides.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { JwtClaims } from '../auth/keys.ts';
import { SchemaCache, type Catalog } from './catalog.ts';
import { SchemaMissError } from './build-sql.ts';
import { RestError, toRestError } from './errors.ts';
import { parsePrefer, parseRangeHeader } from './parse-query.ts';
import {
  authenticate,
  checkProfile,
  getRepresentation,
  runAsCaller,
  type RequestAuth,
} from './request-context.ts';
import {
  getRelation,
  handleDelete,
  handleInsert,
  handleTableRead,
  handleUpdate,
  parseReadQuery,
  type RestResult,
} from './handle-table.ts';
import { getRoutine, handleRpc } from './handle-rpc.ts';

/** Deeper JSON would only reach the database to exhaust its stack (a 500), so it is refused up front. */
const MAX_JSON_DEPTH = 256;

/** The deepest nesting of arrays and objects in JSON text, counted outside strings. */
export function getNestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/** PostgREST's channel: `NOTIFY pgrst, 'reload schema'` (or no payload) reloads the schema cache. */
const SCHEMA_RELOAD_CHANNEL = 'pgrst';

/** The REST part. */
export async function registerRest(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const schemaCache = new SchemaCache(ctx.db);
  // As PostgREST: a schema change announced on the channel is seen at once, by every server process on this
  // database (a migration applied while others serve, decision 0118); without it the cache is up to 10 s old.
  const stopListening = await ctx.db.listen(SCHEMA_RELOAD_CHANNEL, (payload) => {
    if (payload === '' || payload === 'reload schema') schemaCache.invalidate();
  });
  app.addHook('onClose', async () => {
    await stopListening();
  });
  const apiKeyClaims = new Map<string, JwtClaims>([
    [ctx.keys.anonKey, await ctx.keys.verify(ctx.keys.anonKey)],
    [ctx.keys.serviceRoleKey, await ctx.keys.verify(ctx.keys.serviceRoleKey)],
  ]);

  /** Builds with the cached catalog; a name it does not know reloads the catalog once and tries again. */
  async function withCatalog<T>(fn: (catalog: Catalog) => Promise<T>): Promise<T> {
    const catalog = await schemaCache.get();
    try {
      return await fn(catalog);
    } catch (e) {
      if (!(e instanceof SchemaMissError)) throw e;
      const fresh = await schemaCache.refreshAfterMiss();
      if (fresh === catalog) throw e;
      return fn(fresh);
    }
  }

  await app.register(
    async (scope) => {
      // Bodies are parsed here so an empty body is "no body" and every parse failure is a PostgREST-shaped 400.
      scope.removeContentTypeParser(['application/json', 'text/plain']);
      scope.addContentTypeParser(
        ['application/json', 'application/vnd.pgrst.object+json', 'application/vnd.pgrst.array+json'],
        { parseAs: 'string' },
        (_req, body, done) => {
          const text = String(body);
          if (text.trim() === '') return done(null, undefined);
          if (getNestingDepth(text) > MAX_JSON_DEPTH) {
            return done(
              new RestError(400, 'PGRST102', `JSON nested deeper than ${MAX_JSON_DEPTH} levels`),
              undefined,
            );
          }
          try {
            done(null, JSON.parse(text));
          } catch (e) {
            done(
              new RestError(400, 'PGRST102', 'Empty or invalid json', { details: (e as Error).message }),
              undefined,
            );
          }
        },
      );

      scope.setErrorHandler((error: FastifyError | RestError, req, reply) => {
        const authenticated = (req as FastifyRequest & { restAuth?: RequestAuth }).restAuth?.role !== 'anon';
        let rest: RestError;
        if (error instanceof RestError) rest = error;
        else if ((error as FastifyError).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
          rest = new RestError(413, 'PGRST102', 'Request body is too large');
        } else if ((error as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
          rest = new RestError(
            415,
            'PGRST102',
            `Unsupported Content-Type ${req.headers['content-type'] ?? ''}`.trim(),
            {
              hint: 'Send application/json',
            },
          );
        } else if (
          typeof (error as FastifyError).statusCode === 'number' &&
          (error as FastifyError).statusCode! < 500 &&
          !('severity' in error)
        ) {
          rest = new RestError((error as FastifyError).statusCode!, 'PGRST100', error.message);
        } else {
          rest = toRestError(error, authenticated);
        }
        if (rest.status >= 500) req.log.error({ err: error }, 'rest request failed');
        return reply
          .code(rest.status)
          .headers(rest.headers)
          .type('application/json; charset=utf-8')
          .send(rest.toBody());
      });

      scope.setNotFoundHandler((req, reply) => {
        reply
          .code(404)
          .type('application/json; charset=utf-8')
          .send({
            code: 'PGRST125',
            details: null,
            hint: null,
            message: `Invalid path specified in request URL: ${req.url.split('?')[0]}`,
          });
      });

      function send(reply: FastifyReply, result: RestResult, head: boolean) {
        reply.code(result.status).headers(result.headers);
        if (head || result.body === undefined) return reply.send();
        return reply.send(result.body);
      }

      async function begin(req: FastifyRequest) {
        const search = new URLSearchParams(
          req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '',
        );
        const auth = await authenticate(ctx, apiKeyClaims, req, search.get('apikey') ?? undefined);
        (req as FastifyRequest & { restAuth?: RequestAuth }).restAuth = auth;
        checkProfile(req);
        const rangeHeader = req.headers['range'];
        const range = parseRangeHeader(Array.isArray(rangeHeader) ? rangeHeader[0] : rangeHeader);
        return {
          search,
          auth,
          range,
          prefer: parsePrefer(req.headers['prefer']),
          representation: getRepresentation(req),
        };
      }

      scope.route<{ Params: { relation: string } }>({
        method: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
        url: '/:relation',
        exposeHeadRoute: false,
        handler: async (req, reply) => {
          const { search, auth, range, prefer, representation } = await begin(req);
          const method = req.method;
          const head = method === 'HEAD';
          const query = parseReadQuery(search, method === 'GET' || head ? range : undefined);
          const result = await withCatalog(async (catalog) => {
            const rel = getRelation(catalog, req.params.relation);
            // As PostgREST: GET and HEAD read in a read-only transaction (a view that writes answers 405).
            return runAsCaller(ctx, auth, req, { readOnly: method === 'GET' || head }, (tx) => {
              if (method === 'GET' || head)
                return handleTableRead(tx, catalog, rel, query, prefer, representation, head);
              if (method === 'POST')
                return handleInsert(tx, catalog, rel, req.body, query, prefer, representation);
              if (method === 'PATCH')
                return handleUpdate(tx, catalog, rel, req.body, query, prefer, representation);
              return handleDelete(tx, catalog, rel, query, prefer, representation);
            });
          });
          return send(reply, result, head);
        },
      });

      scope.route<{ Params: { fn: string } }>({
        method: ['GET', 'HEAD', 'POST'],
        url: '/rpc/:fn',
        exposeHeadRoute: false,
        handler: async (req, reply) => {
          const { search, auth, range, prefer, representation } = await begin(req);
          const head = req.method === 'HEAD';
          const readOnly = req.method !== 'POST';
          const result = await withCatalog(async (catalog) => {
            let args: Record<string, unknown>;
            if (readOnly) {
              // GET arguments come from the query string: the function's parameter names are arguments, the rest filters.
              const candidates = catalog.functions.get(req.params.fn) ?? [];
              const argNames = new Set(candidates.flatMap((f) => f.args.map((a) => a.name)));
              args = {};
              for (const [k, v] of search) if (argNames.has(k)) args[k] = v;
              const fn = getRoutine(catalog, req.params.fn, Object.keys(args), false);
              const query = parseReadQuery(search, range, (k) => argNames.has(k));
              return runAsCaller(ctx, auth, req, { readOnly: true }, (tx) =>
                handleRpc(tx, fn, args, query, prefer, representation, head),
              );
            }
            const body: unknown = req.body ?? {};
            if (
              typeof body !== 'object' ||
              body === null ||
              (Array.isArray(body) && prefer.params !== 'single-object')
            ) {
              throw new RestError(400, 'PGRST102', 'Expected a JSON object of named arguments');
            }
            args = body as Record<string, unknown>;
            const fn = getRoutine(
              catalog,
              req.params.fn,
              Object.keys(args),
              prefer.params === 'single-object',
            );
            const query = parseReadQuery(search, range);
            // As PostgREST: a POST to a stable or immutable function runs read-only too.
            return runAsCaller(ctx, auth, req, { readOnly: !fn.volatile }, (tx) =>
              handleRpc(tx, fn, args, query, prefer, representation, head),
            );
          });
          return send(reply, result, head);
        },
      });
    },
    { prefix: '/rest/v1' },
  );
}
