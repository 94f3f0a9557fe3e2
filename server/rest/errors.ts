// PostgREST-shaped errors ({code, details, hint, message}) and its mapping from SQLSTATE to HTTP status.
import { isDatabaseError } from '../db/database.ts';

export interface RestErrorBody {
  code: string;
  details: string | null;
  hint: string | null;
  message: string;
}

/** An error the API answers with as is: a status and a PostgREST error body. */
export class RestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: string | null;
  readonly hint: string | null;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { details?: string | null; hint?: string | null; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = options.details ?? null;
    this.hint = options.hint ?? null;
    this.headers = options.headers ?? {};
  }

  toBody(): RestErrorBody {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

/** A malformed query string or header (PostgREST's PGRST100). */
export function parseError(message: string, details: string | null = null): RestError {
  return new RestError(400, 'PGRST100', message, { details });
}

/** PostgREST's table of SQLSTATE -> HTTP status; `authenticated` decides 42501 (401 anon, 403 otherwise). */
export function getStatusForSqlState(code: string, authenticated: boolean): number {
  if (code === '42501') return authenticated ? 403 : 401;
  if (code === '23503' || code === '23505') return 409;
  if (code === '25006') return 405;
  if (code === 'P0001') return 400;
  // no_data_found, raised by functions for a row that is not there (or not the caller's): PostgREST would
  // answer 500, but it is the client's mistake, not the server's (issue 13).
  if (code === 'P0002') return 404;
  if (code === '42883' || code === '42P01') return 404;
  if (code === '42P17' || code === '53400') return 500;
  // A custom status raised from SQL: raise sqlstate 'PT402' -> 402.
  if (/^PT[0-9]{3}$/.test(code)) {
    const n = Number(code.slice(2));
    return n >= 100 && n <= 599 ? n : 500;
  }
  // A statement cancelled by the statement timeout: the query was too heavy for now, not a server fault.
  if (code === '57014') return 503;
  // The server is going away or restarting: the client should retry, as with a lost connection.
  if (code === '57P01' || code === '57P02' || code === '57P03') return 503;
  const prefix = code.slice(0, 2);
  switch (prefix) {
    case '08':
    case '53':
      return 503;
    case '0L':
    case '0P':
    case '28':
      return 403;
    case '09':
    case '25':
    case '2D':
    case '38':
    case '39':
    case '3B':
    case '40':
    case '54':
    case '55':
    case '57':
    case '58':
    case 'F0':
    case 'HV':
    case 'P0':
    case 'XX':
      return 500;
    default:
      return 400;
  }
}

const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);

/** Turns anything thrown while answering into the response PostgREST would give. */
export function toRestError(e: unknown, authenticated: boolean): RestError {
  if (e instanceof RestError) return e;
  if (isDatabaseError(e)) {
    return new RestError(getStatusForSqlState(e.code, authenticated), e.code, e.message, {
      details: e.detail ?? null,
      hint: e.hint ?? null,
    });
  }
  const err = e as { code?: unknown; message?: unknown };
  const message = typeof err?.message === 'string' ? err.message : String(e);
  if (
    (typeof err?.code === 'string' && CONNECTION_ERROR_CODES.has(err.code)) ||
    /timeout exceeded when trying to connect|Connection terminated|not queryable|closed/i.test(message)
  ) {
    return new RestError(503, 'PGRST001', 'Database client error. Retrying the connection.', {
      details: message,
    });
  }
  return new RestError(500, 'PGRST000', 'Internal server error', { details: null });
}
