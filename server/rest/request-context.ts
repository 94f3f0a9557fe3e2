// Who is asking and how to answer: API key and bearer token -> role and claims, the per-request
// transaction that sets them like PostgREST does, and the Accept/profile negotiation.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { readBearer, resolveCaller } from '../caller/caller.ts';
import type { Queryable } from '../db/database.ts';
import type { ApiRole, JwtClaims } from '../auth/keys.ts';
import { RestError } from './errors.ts';

export interface RequestAuth {
  role: ApiRole;
  claims: JwtClaims;
}

function getHeader(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function unauthorized(code: string, message: string, hint: string | null = null): RestError {
  return new RestError(401, code, message, {
    hint,
    headers: {
      'www-authenticate': `Bearer error="invalid_token", error_description="${message.replace(/"/g, "'")}"`,
    },
  });
}

/** Resolves the caller: the API key must be this instance's anon or service key; the bearer token, when sent, decides the role. */
export async function authenticate(
  ctx: AppContext,
  apiKeyClaims: Map<string, JwtClaims>,
  req: FastifyRequest,
  queryApiKey: string | undefined,
): Promise<RequestAuth> {
  const apiKey = getHeader(req, 'apikey') ?? queryApiKey;
  if (!apiKey) {
    throw new RestError(401, 'PGRST301', 'No API key found in request', {
      hint: 'No `apikey` request header or url param was found.',
    });
  }
  const keyClaims = apiKeyClaims.get(apiKey);
  if (!keyClaims)
    throw new RestError(401, 'PGRST301', 'Invalid API key', {
      hint: 'Double check your Supabase `anon` or `service_role` API key.',
    });
  const token = readBearer(getHeader(req, 'authorization'));
  if (token === undefined) return { role: keyClaims.role, claims: keyClaims };
  if (token === null) throw unauthorized('PGRST301', 'Expected Authorization: Bearer <token>');
  const known = apiKeyClaims.get(token);
  if (known) return { role: known.role, claims: known };
  const result = await resolveCaller(ctx, token);
  if (result.ok) return result.caller;
  if (result.refusal === 'unavailable')
    throw new RestError(503, 'PGRST001', 'Database client error. Retrying the connection.');
  if (result.refusal === 'expired') throw unauthorized('PGRST303', 'JWT expired');
  throw unauthorized('PGRST301', 'Invalid JWT');
}

/** Accept-Profile / Content-Profile may only name public, the one exposed schema. */
export function checkProfile(req: FastifyRequest): void {
  const profile = getHeader(req, 'accept-profile') ?? getHeader(req, 'content-profile');
  if (profile !== undefined && profile !== 'public') {
    throw new RestError(406, 'PGRST106', 'The schema must be one of the following: public', {
      details: `Invalid schema: ${profile}`,
    });
  }
}

export interface Representation {
  /** application/vnd.pgrst.object+json: exactly one row, answered as an object. */
  singular: boolean;
  stripNulls: boolean;
}

export function getRepresentation(req: FastifyRequest): Representation {
  const accept = getHeader(req, 'accept');
  if (!accept) return { singular: false, stripNulls: false };
  const types = accept.split(',').map((t) => t.trim().toLowerCase());
  for (const t of types) {
    const [media = '', ...paramList] = t.split(';').map((s) => s.trim());
    const stripNulls = paramList.includes('nulls=stripped');
    if (media === 'application/vnd.pgrst.object+json' || media === 'application/vnd.pgrst.object') {
      return { singular: true, stripNulls };
    }
    if (media === 'application/vnd.pgrst.array+json' || media === 'application/vnd.pgrst.array') {
      return { singular: false, stripNulls };
    }
    if (media === 'application/json' || media === '*/*' || media === 'application/*' || media === '') {
      return { singular: false, stripNulls: false };
    }
  }
  throw new RestError(406, 'PGRST107', `None of these media types are available: ${accept}`);
}

/** The error of .single() when the result is not exactly one row. */
export function getSingularError(rows: number): RestError {
  return new RestError(406, 'PGRST116', 'Cannot coerce the result to a single JSON object', {
    details: `The result contains ${rows} rows`,
  });
}

/** The caller's role and claims, set like PostgREST does; the same text on every request. */
export const SET_CALLER_SQL = `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
  set_config('request.method', $3, true), set_config('request.path', $4, true),
  set_config('request.headers', $5, true), set_config('timezone', 'UTC', true),
  set_config('statement_timeout', $6, true)`;
/** Prepared once per PostgreSQL connection under this name: each request then skips parsing and planning it. */
export const SET_CALLER_STATEMENT = 'hs_rest_set_caller';

/** Runs fn in one transaction as the caller's role with request.jwt.claims set, as PostgREST does. */
export async function runAsCaller<T>(
  ctx: AppContext,
  auth: RequestAuth,
  req: FastifyRequest,
  options: { readOnly: boolean },
  fn: (tx: Queryable) => Promise<T>,
): Promise<T> {
  const { cookie: _cookie, ...headers } = req.headers;
  // The caller's address as this server knows it (req.ip honours TRUSTED_PROXIES), for SQL's per-address
  // limits; headers of these names sent by a client are never believed.
  delete headers['cf-connecting-ip'];
  headers['x-heartsync-client-address'] = req.ip;
  const path = req.url.split('?')[0] ?? '';
  // The role and claims travel with BEGIN and the request's first statement (decision 0089).
  return ctx.db.transaction(fn, {
    readOnly: options.readOnly,
    // Every read-only request runs one statement: its COMMIT travels with it (decision 0090).
    oneStatement: options.readOnly,
    setup: [
      {
        text: SET_CALLER_SQL,
        params: [
          auth.role,
          JSON.stringify(auth.claims),
          req.method,
          path,
          JSON.stringify(headers),
          // A member's or visitor's statement may not hold the database for everyone else (issue 13); the
          // service role (jobs, webhooks, the operator) is trusted with longer work.
          auth.role === 'service_role' ? '0' : `${ctx.config.REST_STATEMENT_TIMEOUT_MS}ms`,
        ],
        name: SET_CALLER_STATEMENT,
      },
    ],
  });
}
