// Sessions and their refresh-token families: open, rotate (reuse revokes the family), end; access tokens.
import crypto from 'node:crypto';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import type { JwtClaims } from './keys.ts';
import { AuthHttpError } from './errors.ts';
import type { InlineSecurityEvent } from './security-events.ts';
import { createOpaqueToken, hashToken } from './tokens.ts';
import { findUserById, isUserActive, toUserJson, type UserRow } from './users.ts';

export type AmrMethod = 'password' | 'otp' | 'recovery';

export interface SessionJson {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

interface SessionRow {
  id: string;
  user_id: string;
  amr_method: AmrMethod;
  created_at: Date;
}

/** How long a positive "session is live" answer may be reused before asking the database again. */
const LIVE_CACHE_MS = 5000;

export class SessionStore {
  private readonly liveCache = new Map<string, { userId: string; until: number }>();

  constructor(private readonly ctx: Pick<AppContext, 'db' | 'keys' | 'config' | 'events'>) {
    // Sessions ended by other parts (e.g. the deletion job) must stop working at once here too.
    ctx.events.on('sessions-ended', ({ userId, sessionIds }) => this.forget(userId, sessionIds));
  }

  /**
   * Opens a session for the user and returns it with its first refresh token, as GoTrue answers. One
   * call of auth.open_session (one round trip) writes the session, the token, last_sign_in_at and the
   * optional security event.
   */
  async openSession(
    user: UserRow,
    method: AmrMethod,
    meta: { ip?: string; userAgent?: string },
    event?: InlineSecurityEvent,
    onEventError?: (error: string) => void,
  ): Promise<SessionJson> {
    const sessionId = crypto.randomUUID();
    const refreshToken = createOpaqueToken();
    const r = await this.ctx.db.query<UserRow & { event_error: string | null }>(
      `select * from auth.open_session($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        sessionId,
        user.id,
        method,
        meta.userAgent?.slice(0, 512) ?? null,
        meta.ip ?? null,
        hashToken(refreshToken),
        event?.name ?? null,
        event ? JSON.stringify(event.details) : null,
      ],
      { name: 'hs_auth_open_session' },
    );
    const row = r.rows[0];
    let signedIn: UserRow = user;
    if (row) {
      const { event_error: eventError, ...updated } = row;
      if (eventError) onEventError?.(eventError);
      signedIn = updated;
    }
    return this.buildSession(signedIn, sessionId, method, new Date(), refreshToken);
  }

  /**
   * Swaps a refresh token for a new session answer. An already-rotated token means it leaked or was
   * replayed: the whole family (the session and all its tokens) is revoked and the call refused.
   */
  async refresh(refreshToken: string): Promise<SessionJson> {
    const oldHash = hashToken(refreshToken);
    const newToken = createOpaqueToken();
    const outcome = await this.ctx.db.transaction(async (tx) => {
      const claimed = await tx.query<{ session_id: string; user_id: string }>(
        `update auth.refresh_tokens set revoked = true, updated_at = now()
         where token_hash = $1 and revoked = false returning session_id, user_id`,
        [oldHash],
      );
      const row = claimed.rows[0];
      if (!row) {
        const known = await tx.query<{ session_id: string; user_id: string }>(
          `select session_id, user_id from auth.refresh_tokens where token_hash = $1`,
          [oldHash],
        );
        const reused = known.rows[0];
        if (!reused) return { kind: 'unknown' as const };
        await tx.query(`delete from auth.sessions where id = $1`, [reused.session_id]);
        return { kind: 'reused' as const, ...reused };
      }
      await tx.query(
        `insert into auth.refresh_tokens (token_hash, user_id, session_id, parent_hash) values ($1, $2, $3, $4)`,
        [hashToken(newToken), row.user_id, row.session_id, oldHash],
      );
      const s = await tx.query<SessionRow>(
        `update auth.sessions set refreshed_at = now(), updated_at = now() where id = $1
         returning id, user_id, amr_method, created_at`,
        [row.session_id],
      );
      return { kind: 'rotated' as const, session: s.rows[0] };
    });
    if (outcome.kind === 'unknown')
      throw new AuthHttpError(
        400,
        'refresh_token_not_found',
        'Invalid Refresh Token: Refresh Token Not Found',
      );
    if (outcome.kind === 'reused') {
      this.forget(outcome.user_id, [outcome.session_id]);
      this.ctx.events.emit('sessions-ended', { userId: outcome.user_id, sessionIds: [outcome.session_id] });
      throw new AuthHttpError(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used');
    }
    const session = outcome.session;
    if (!session) throw new AuthHttpError(400, 'session_not_found', 'Session not found');
    const user = await findUserById(this.ctx.db, session.user_id);
    if (!user || !isUserActive(user)) {
      await this.endSessions(session.user_id, 'all');
      throw new AuthHttpError(400, 'user_not_found', 'User from refresh token no longer exists');
    }
    return this.buildSession(user, session.id, session.amr_method, new Date(session.created_at), newToken);
  }

  /** Finds a live session's row; undefined when it ended. */
  async findSession(sessionId: string): Promise<SessionRow | undefined> {
    const r = await this.ctx.db.query<SessionRow>(
      `select id, user_id, amr_method, created_at from auth.sessions where id = $1`,
      [sessionId],
    );
    return r.rows[0];
  }

  /** True when the session exists for that user; positive answers are cached for a few seconds. */
  async isSessionLive(sessionId: string, userId: string | undefined): Promise<boolean> {
    const cached = this.liveCache.get(sessionId);
    if (cached && cached.until > Date.now() && cached.userId === userId) return true;
    const row = await this.findSession(sessionId);
    if (!row || row.user_id !== userId) return false;
    if (this.liveCache.size > 10_000) this.liveCache.clear();
    this.liveCache.set(sessionId, { userId: row.user_id, until: Date.now() + LIVE_CACHE_MS });
    return true;
  }

  /** Ends sessions: 'all' of the user, or the listed ones; `exceptId` keeps one (the caller's own). */
  async endSessions(
    userId: string,
    which: 'all' | string[],
    exceptId?: string,
    tx: Queryable = this.ctx.db,
  ): Promise<string[]> {
    const r =
      which === 'all'
        ? await tx.query<{ id: string }>(
            `delete from auth.sessions where user_id = $1 and ($2::uuid is null or id <> $2::uuid) returning id`,
            [userId, exceptId ?? null],
          )
        : await tx.query<{ id: string }>(
            `delete from auth.sessions where user_id = $1 and id = any($2::uuid[]) returning id`,
            [userId, which],
          );
    const ended = r.rows.map((x) => x.id);
    this.forget(userId, ended);
    if (ended.length > 0) this.ctx.events.emit('sessions-ended', { userId, sessionIds: ended });
    return ended;
  }

  /** Drops cached answers for ended sessions, so this process refuses their tokens at once. */
  forget(userId: string, sessionIds: string[] | 'all'): void {
    for (const [id, entry] of this.liveCache)
      if (entry.userId === userId && (sessionIds === 'all' || sessionIds.includes(id)))
        this.liveCache.delete(id);
  }

  private async buildSession(
    user: UserRow,
    sessionId: string,
    method: AmrMethod,
    openedAt: Date,
    refreshToken: string,
  ): Promise<SessionJson> {
    const ttl = this.ctx.config.ACCESS_TOKEN_TTL_SECONDS;
    const userJson = toUserJson(user);
    const claims: JwtClaims = {
      aud: 'authenticated',
      sub: user.id,
      email: user.email,
      phone: '',
      app_metadata: userJson['app_metadata'] as Record<string, unknown>,
      user_metadata: userJson['user_metadata'] as Record<string, unknown>,
      role: 'authenticated',
      aal: 'aal1',
      amr: [{ method, timestamp: Math.floor(openedAt.getTime() / 1000) }],
      session_id: sessionId,
      is_anonymous: false,
    };
    const accessToken = await this.ctx.keys.sign(claims, ttl);
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: ttl,
      expires_at: Math.floor(Date.now() / 1000) + ttl,
      refresh_token: refreshToken,
      user: userJson,
    };
  }
}
