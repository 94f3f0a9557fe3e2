// Errors of the auth service in GoTrue's v2 shape ({ code, error_code, msg }), which supabase-js turns
// into AuthApiError with .code = error_code and .status = the HTTP status.
import type { FastifyReply } from 'fastify';

export class AuthHttpError extends Error {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
    /** Extra top-level body fields (weak_password reasons) and response headers (Retry-After). */
    readonly extra: { body?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}

export function sendAuthError(reply: FastifyReply, e: AuthHttpError): FastifyReply {
  for (const [k, v] of Object.entries(e.extra.headers ?? {})) reply.header(k, v);
  return reply
    .code(e.status)
    .send({ code: e.status, error_code: e.errorCode, msg: e.message, ...(e.extra.body ?? {}) });
}

export const invalidCredentials = () =>
  new AuthHttpError(400, 'invalid_credentials', 'Invalid login credentials');

export const validationFailed = (message: string) => new AuthHttpError(400, 'validation_failed', message);

export const noAuthorization = () =>
  new AuthHttpError(401, 'no_authorization', 'This endpoint requires a Bearer token');

export const badJwt = () =>
  new AuthHttpError(403, 'bad_jwt', 'invalid JWT: unable to parse or verify signature, or it has expired');

export const sessionNotFound = () =>
  new AuthHttpError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist');

export const notAdmin = () => new AuthHttpError(403, 'not_admin', 'User not allowed');

export const tooManyRequests = (retryAfterSeconds: number) =>
  new AuthHttpError(429, 'over_request_rate_limit', 'Request rate limit reached', {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
