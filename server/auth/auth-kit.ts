// What the routes of /auth/v1 share: request helpers, the caller checks of /user, /logout and /admin, and the
// mailed-link machinery (the sign-up binding cookie of decision 0054, link mails, verification). The kit is
// built once per server by registerAuth (auth-part.ts) and handed to each group of routes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readBearer } from '../caller/caller.ts';
import type { AppContext } from '../context.ts';
import { buildConfirmSignupMail, buildResetPasswordMail } from '../mail/templates.ts';
import { AuthHttpError, badJwt, noAuthorization, notAdmin, sessionNotFound } from './errors.ts';
import type { JwtClaims } from './keys.ts';
import { consumeOneTimeToken, issueOneTimeToken, type OneTimeTokenType } from './one-time-tokens.ts';
import type { SessionJson } from './sessions.ts';
import { createOpaqueToken, hashToken } from './tokens.ts';
import { findUserById, isUserActive, type UserRow } from './users.ts';
import { getSafeRedirect } from './redirects.ts';

export const USER_RETURNING = `returning id, email, encrypted_password, email_confirmed_at, confirmation_sent_at,
  recovery_sent_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  banned_until, deleted_at`;

/** The cookie that ties sign-up links to the browser that asked for them (decision 0054). */
const SIGNUP_BINDING_COOKIE = 'hs_signup_binding';

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type Body = Record<string, unknown>;

export function getBody(req: FastifyRequest): Body {
  const b = req.body;
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Body) : {};
}

export function getQuery(req: FastifyRequest): Record<string, unknown> {
  return (req.query ?? {}) as Record<string, unknown>;
}

export function getBearer(req: FastifyRequest): string | undefined {
  return readBearer(req.headers.authorization) ?? undefined;
}

export function getApiKey(req: FastifyRequest): string | undefined {
  const h = req.headers['apikey'];
  if (typeof h === 'string' && h) return h;
  const q = getQuery(req)['apikey'];
  return typeof q === 'string' && q ? q : undefined;
}

export function getRequestMeta(req: FastifyRequest) {
  const ua = req.headers['user-agent'];
  return { ip: req.ip, ...(typeof ua === 'string' ? { userAgent: ua } : {}) };
}

export type AuthKit = ReturnType<typeof createAuthKit>;

export function createAuthKit(ctx: AppContext) {
  const { config, db, keys } = ctx;
  const { sessions, limiter, recordSecurityEvent } = ctx.auth;
  const { mailer } = ctx;
  const linkTtlMinutes = Math.round(config.AUTH_LINK_TTL_SECONDS / 60);

  /** The signed-in caller of /user and /logout: a valid user token whose session is still live. */
  async function getCaller(
    req: FastifyRequest,
  ): Promise<{ claims: JwtClaims; user: UserRow; sessionId: string }> {
    const claims = await readMemberClaims(req);
    const session = await sessions.findSession(claims.session_id);
    if (!session || session.user_id !== claims.sub) throw sessionNotFound();
    const user = await findUserById(db, claims.sub);
    if (!user || !isUserActive(user))
      throw new AuthHttpError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    return { claims, user, sessionId: session.id };
  }

  async function assertServiceRole(req: FastifyRequest): Promise<void> {
    const claims = await readTokenClaims(req);
    if (claims.role !== 'service_role') throw notAdmin();
  }

  /** The bearer token's claims, by its signature alone (whether its session is live is the caller's question). */
  async function readTokenClaims(req: FastifyRequest): Promise<JwtClaims> {
    const token = getBearer(req);
    if (!token) throw noAuthorization();
    try {
      return await keys.verify(token);
    } catch {
      throw badJwt();
    }
  }

  /** The claims of a signed-in member's token: role authenticated, a subject and a session id. */
  async function readMemberClaims(
    req: FastifyRequest,
  ): Promise<JwtClaims & { sub: string; session_id: string }> {
    const claims = await readTokenClaims(req);
    if (claims.role !== 'authenticated' || !claims.sub || typeof claims.session_id !== 'string')
      throw new AuthHttpError(403, 'bad_jwt', 'This endpoint requires a signed-in user token');
    return claims as JwtClaims & { sub: string; session_id: string };
  }

  const bindingCookie = `${SIGNUP_BINDING_COOKIE}=`;
  const secureCookie = config.publicUrl.startsWith('https:') ? '; Secure' : '';

  /** This browser's sign-up binding from its cookie, if it has one. */
  function readSignupBinding(req: FastifyRequest): string | undefined {
    const found = (req.headers.cookie ?? '')
      .split(';')
      .map((c) => c.trim())
      .find((c) => c.startsWith(bindingCookie));
    const value = found?.slice(bindingCookie.length);
    return value && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
  }

  /** This browser's binding, made (and set as an HttpOnly cookie for the verify links) when it has none. */
  function useSignupBinding(req: FastifyRequest, reply: FastifyReply): string {
    const existing = readSignupBinding(req);
    if (existing) return existing;
    const made = createOpaqueToken();
    reply.header(
      'set-cookie',
      `${bindingCookie}${made}; Path=/auth/v1; HttpOnly; SameSite=Lax; Max-Age=${30 * 86400}${secureCookie}`,
    );
    return made;
  }

  /** Marks an unconfirmed account contested when this browser is not the one that created it. */
  async function contestSignup(userId: string, bindingHash: string): Promise<void> {
    await db.query(
      `insert into auth.signup_bindings (user_id, binding_hash, contested) values ($1, $2, true)
       on conflict (user_id) do update set contested = auth.signup_bindings.contested
         or auth.signup_bindings.binding_hash <> excluded.binding_hash`,
      [userId, bindingHash],
    );
  }

  async function sendLinkMail(
    user: { id: string; email: string },
    type: OneTimeTokenType,
    redirectTo: string,
    passwordHash?: string,
    bindingHash?: string,
  ) {
    const token = await issueOneTimeToken(db, {
      userId: user.id,
      type,
      ttlSeconds: config.AUTH_LINK_TTL_SECONDS,
      ...(passwordHash ? { passwordHash } : {}),
      ...(bindingHash ? { bindingHash } : {}),
    });
    const link = new URL(`${config.publicUrl}/auth/v1/verify`);
    link.searchParams.set('token', token);
    link.searchParams.set('type', type);
    link.searchParams.set('redirect_to', redirectTo);
    const column = type === 'signup' ? 'confirmation_sent_at' : 'recovery_sent_at';
    await db.query(`update auth.users set ${column} = now() where id = $1`, [user.id]);
    const mail =
      type === 'signup'
        ? buildConfirmSignupMail(user.email, link.toString(), linkTtlMinutes)
        : buildResetPasswordMail(user.email, link.toString(), linkTtlMinutes);
    await mailer.send(mail);
  }

  /** Work an answer must not wait for (its time would tell whether an address is registered). */
  function afterAnswer(work: () => Promise<void>): void {
    setImmediate(() => {
      work().catch((e: unknown) => ctx.log.error({ err: e }, 'auth: a mailed link could not be sent'));
    });
  }

  const defaultRedirects: Record<OneTimeTokenType, string> = {
    signup: '/auth/callback?type=signup',
    recovery: '/reset-password',
  };

  /** Where a mailed link of this type leads: the request's `redirect_to` when it is ours, else the default. */
  function redirectFor(req: FastifyRequest, type: OneTimeTokenType): string {
    return getSafeRedirect(getQuery(req)['redirect_to'], config.publicUrl, defaultRedirects[type]);
  }

  /** Consumes a mailed token and opens the session it grants; undefined when the link is not valid. */
  async function verifyLink(
    token: string,
    type: OneTimeTokenType,
    req: FastifyRequest,
  ): Promise<SessionJson | undefined> {
    const consumed = await consumeOneTimeToken(db, token, type);
    if (!consumed) return undefined;
    const clicker = readSignupBinding(req);
    const updated = await db.transaction(async (tx) => {
      // Clicking any mailed link proves the address. A confirmed sign-up applies that sign-up's password,
      // unless the account is contested (another browser signed up or asked for a link before anyone proved
      // the mailbox) and the clicking browser is not the one that chose it: then no password survives, and
      // whoever set one without the mailbox keeps no access (issue 13, decision 0054).
      const binding = await tx.query<{ contested: boolean }>(
        'delete from auth.signup_bindings where user_id = $1 returning contested',
        [consumed.userId],
      );
      const contested = binding.rows[0]?.contested === true;
      // The clicking browser asked for this very link and chose the password it carries.
      const chosenHere =
        consumed.passwordHash !== null &&
        consumed.bindingHash !== null &&
        clicker !== undefined &&
        hashToken(clicker) === consumed.bindingHash;
      const r = await tx.query<UserRow>(
        contested && !chosenHere
          ? `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()),
               encrypted_password = null, updated_at = now()
             where id = $1 ${USER_RETURNING}`
          : `update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()),
               encrypted_password = coalesce($2, encrypted_password), updated_at = now()
             where id = $1 ${USER_RETURNING}`,
        contested && !chosenHere ? [consumed.userId] : [consumed.userId, consumed.passwordHash],
      );
      // The other links of the same kind die with this one (an older sign-up link must not reset the password).
      await tx.query(`delete from auth.one_time_tokens where user_id = $1 and token_type = $2`, [
        consumed.userId,
        type,
      ]);
      return r.rows[0];
    });
    if (!updated || !isUserActive(updated)) return undefined;
    return sessions.openSession(updated, type === 'signup' ? 'otp' : 'recovery', getRequestMeta(req));
  }

  function parseLinkType(v: unknown): OneTimeTokenType | undefined {
    if (v === 'signup' || v === 'recovery') return v;
    if (v === 'email') return 'signup';
    return undefined;
  }

  return {
    ctx,
    config,
    db,
    keys,
    sessions,
    limiter,
    recordSecurityEvent,
    getCaller,
    assertServiceRole,
    readMemberClaims,
    useSignupBinding,
    contestSignup,
    sendLinkMail,
    afterAnswer,
    redirectFor,
    verifyLink,
    parseLinkType,
  };
}
