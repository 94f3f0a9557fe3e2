// What every part of the server is given: configuration, database, keys, logger and a small event bus.
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import type { JwtClaims, Keys } from './auth/keys.ts';
import type { ClusterBus } from './cluster/cluster-bus.ts';
import type { Mailer } from './mail/mailer.ts';
import type { AuthServices } from './auth/auth-services.ts';

/** Events parts of the server tell each other about (e.g. realtime closes sockets of ended sessions). */
export interface ServerEvents {
  /** Sessions ended (sign-out, reset, deletion): realtime and sync drop their connections. */
  'sessions-ended': [{ userId: string; sessionIds: string[] | 'all' }];
}

export class ServerEventBus extends EventEmitter<ServerEvents> {}

/**
 * verifyToken could not tell whether the token's session is live (the database did not answer): the caller
 * gets a 503 to retry, never a 401 that would sign a member out because the server was busy.
 */
export class TokenCheckUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The session check is unavailable: the database did not answer', { cause });
    this.name = 'TokenCheckUnavailableError';
  }
}

export interface AppContext {
  config: Config;
  db: Database;
  keys: Keys;
  log: FastifyBaseLogger;
  events: ServerEventBus;
  /** The other server processes on the same PostgreSQL (a bus that sends nothing when alone). */
  bus: ClusterBus;
  /** The mail queue every part sends through (built once per server by buildApp, closed with it). */
  mailer: Mailer;
  /** Auth's services other parts use too (sessions, sign-in limiter, security log, password re-check). */
  auth: AuthServices;
  /**
   * Verifies an access token or API key and that its session is still live; throws when not
   * (auth/verify-token.ts, built by buildApp on `auth.sessions`).
   */
  verifyToken(token: string): Promise<JwtClaims>;
}
