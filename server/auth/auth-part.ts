// The GoTrue-compatible auth service under /auth/v1 (the subset supabase-js uses), and the session-aware
// ctx.verifyToken every other part relies on. Wire formats follow @supabase/auth-js and GoTrue's docs.
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TokenCheckUnavailableError, type AppContext } from '../context.ts';
import { isDatabaseError } from '../db/database.ts';
import { buildConfirmSignupMail, buildResetPasswordMail } from '../mail/templates.ts';
import {
  AuthHttpError,
  badJwt,
  invalidCredentials,
  noAuthorization,
  notAdmin,
  sendAuthError,
  sessionNotFound,
  validationFailed,
} from './errors.ts';
import type { JwtClaims } from './keys.ts';
import { consumeOneTimeToken, issueOneTimeToken, type OneTimeTokenType } from './one-time-tokens.ts';
import { setPasswordChecker } from './password-check.ts';
import { assertPasswordAllowed, hashPassword, verifyPassword } from './passwords.ts';
import { createRateLimiter } from './rate-limit.ts';
import { getSafeRedirect, withFragment } from './redirects.ts';
import { createSecurityEventRecorder } from './security-events.ts';
import { SessionStore, type SessionJson } from './sessions.ts';
import {
  findUserByEmail,
  findUserById,
  getNormalizedEmail,
  isUserActive,
  sanitizeUserMetadata,
  toNewLookingUserJson,
  toObfuscatedUserJson,
  toUserJson,
  type UserRow,
} from './users.ts';
import { createOpaqueToken, hashToken } from './tokens.ts';

const USER_RETURNING = `returning id, email, encrypted_password, email_confirmed_at, confirmation_sent_at,
  recovery_sent_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  banned_until, deleted_at`;

/** The cookie that ties sign-up links to the browser that asked for them (decision 0054). */
const SIGNUP_BINDING_COOKIE = 'hs_signup_binding';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Paths a browser opens from a mail or a client fetches before it has a key: no apikey asked. */
const OPEN_PATHS = new Set(['GET /auth/v1/verify', 'GET /auth/v1/.well-known/jwks.json']);

type Body = Record<string, unknown>;

function getBody(req: FastifyRequest): Body {
  const b = req.body;
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Body) : {};
}

function getQuery(req: FastifyRequest): Record<string, unknown> {
  return (req.query ?? {}) as Record<string, unknown>;
}

function getBearer(req: FastifyRequest): string | undefined {
  return readBearer(req.headers.authorization) ?? undefined;
}

function getApiKey(req: FastifyRequest): string | undefined {
  const h = req.headers['apikey'];
  if (typeof h === 'string' && h) return h;
  const q = getQuery(req)['apikey'];
  return typeof q === 'string' && q ? q : undefined;
}

export async function registerAuth(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { config, db, keys } = ctx;
  const sessions = new SessionStore(ctx);
  const { mailer } = ctx;
  const recordSecurityEvent = createSecurityEventRecorder(ctx);
  const limiter = createRateLimiter({
    max: config.AUTH_RATE_LIMIT_MAX,
    windowSeconds: config.AUTH_RATE_LIMIT_WINDOW_SECONDS,
    bus: ctx.bus,
    name: 'auth',
  });
  const linkTtlMinutes = Math.round(config.AUTH_LINK_TTL_SECONDS / 60);

  // Every part verifies tokens through ctx: from here on a token of an ended session is refused everywhere.
  // Tokens without session_id are only ever minted by this server itself (API keys, internal calls).
  ctx.verifyToken = async (token: string): Promise<JwtClaims> => {
    const claims = await keys.verify(token);
    if (claims.role === 'authenticated' && typeof claims.session_id === 'string') {
      let live: boolean;
      try {
        live = await sessions.isSessionLive(claims.session_id, claims.sub);
      } catch (e) {
        throw new TokenCheckUnavailableError(e);
      }
      if (!live) throw new Error('session ended');
    }
    return claims;
  };

  // Functions re-check a password in process (delete-account): counted like a sign-in, no session opened.
  setPasswordChecker(ctx, async (userId, password, clientIp) => {
    const user = UUID_PATTERN.test(userId) ? await findUserById(db, userId) : undefined;
    try {
      limiter.hit([`signin:ip:${clientIp}`, `signin:email:${user ? user.email.toLowerCase() : userId}`]);
    } catch (e) {
      if (e instanceof AuthHttpError && e.status === 429) return 'rate_limited';
      throw e;
    }
    const ok = await verifyPassword(user?.encrypted_password, password);
    if (!user || !ok || !isUserActive(user)) {
      await recordSecurityEvent(
        'password_check_failed',
        { ip: clientIp, reason: 'invalid_credentials' },
        user?.id,
      );
      return 'incorrect';
    }
    return 'ok';
  });

  // No backend URL: the app talks to the origin it was loaded from, whatever address that is (decision
  // 0053). PUBLIC_URL is only for links that leave the app (e-mails).
  app.get('/app-config.json', async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return {
      anonKey: keys.anonKey,
      operatorName: config.OPERATOR_NAME,
      operatorContact: config.OPERATOR_CONTACT,
    };
  });

  /** The signed-in caller of /user and /logout: a valid user token whose session is still live. */
  async function getCaller(
    req: FastifyRequest,
  ): Promise<{ claims: JwtClaims; user: UserRow; sessionId: string }> {
    const token = getBearer(req);
    if (!token) throw noAuthorization();
    let claims: JwtClaims;
    try {
      claims = await keys.verify(token);
    } catch {
      throw badJwt();
    }
    if (claims.role !== 'authenticated' || !claims.sub || typeof claims.session_id !== 'string')
      throw new AuthHttpError(403, 'bad_jwt', 'This endpoint requires a signed-in user token');
    const session = await sessions.findSession(claims.session_id);
    if (!session || session.user_id !== claims.sub) throw sessionNotFound();
    const user = await findUserById(db, claims.sub);
    if (!user || !isUserActive(user))
      throw new AuthHttpError(403, 'user_not_found', 'User from sub claim in JWT does not exist');
    return { claims, user, sessionId: session.id };
  }

  async function assertServiceRole(req: FastifyRequest): Promise<void> {
    const token = getBearer(req);
    if (!token) throw noAuthorization();
    let claims: JwtClaims;
    try {
      claims = await keys.verify(token);
    } catch {
      throw badJwt();
    }
    if (claims.role !== 'service_role') throw notAdmin();
  }

  function getRequestMeta(req: FastifyRequest) {
    const ua = req.headers['user-agent'];
    return { ip: req.ip, ...(typeof ua === 'string' ? { userAgent: ua } : {}) };
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

      scope.post('/signup', async (req, reply: FastifyReply) => {
        limiter.hit([`signup:ip:${req.ip}`]);
        const body = getBody(req);
        const email = getNormalizedEmail(body['email']);
        if (typeof body['password'] !== 'string') throw validationFailed('Signup requires a valid password');
        const password = body['password'];
        assertPasswordAllowed(password);
        const metadata = sanitizeUserMetadata(body['data']);
        limiter.hit([`signup:email:${email}`]);
        const redirectTo = getSafeRedirect(
          getQuery(req)['redirect_to'],
          config.publicUrl,
          defaultRedirects.signup,
        );
        // Hashing happens on every path, so a registered address does not answer measurably faster.
        const passwordHash = await hashPassword(password);

        let user = await findUserByEmail(db, email);
        let created = false;
        if (!user) {
          try {
            const r = await db.query<UserRow>(
              `insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
                 raw_app_meta_data, raw_user_meta_data)
               values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3, $4, $5)
               ${USER_RETURNING}`,
              [
                crypto.randomUUID(),
                email,
                passwordHash,
                JSON.stringify({ provider: 'email', providers: ['email'] }),
                JSON.stringify(metadata),
              ],
            );
            user = r.rows[0];
            created = true;
          } catch (e) {
            // Two sign-ups for one new address at once: the second one is answered as for a known address.
            if (!(isDatabaseError(e) && e.code === '23505')) throw e;
            user = await findUserByEmail(db, email);
          }
        }
        if (!user || user.email_confirmed_at || !isUserActive(user)) {
          return toObfuscatedUserJson(email, metadata);
        }
        const binding = useSignupBinding(req, reply);
        const bindingHash = hashToken(binding);
        if (created) {
          await db.query(
            'insert into auth.signup_bindings (user_id, binding_hash) values ($1, $2) on conflict do nothing',
            [user.id, bindingHash],
          );
        } else {
          // Not confirmed yet: the password stays as it is (a second sign-up never changes it), and a sign-up
          // from another browser contests the account; this sign-up's own link carries its password.
          await contestSignup(user.id, bindingHash);
        }
        await sendLinkMail(user, 'signup', redirectTo, passwordHash, bindingHash);
        // A repeated sign-up is answered like a first one, without the account's real id.
        if (!created) return toNewLookingUserJson(email, metadata);
        const fresh = await findUserById(db, user.id);
        return toUserJson(fresh ?? user);
      });

      scope.post('/token', async (req) => {
        const grantType = getQuery(req)['grant_type'];
        const body = getBody(req);
        if (grantType === 'refresh_token') {
          const token = body['refresh_token'];
          if (typeof token !== 'string' || token === '' || token.length > 200)
            throw new AuthHttpError(400, 'validation_failed', 'refresh_token required');
          return sessions.refresh(token);
        }
        if (grantType !== 'password')
          throw new AuthHttpError(400, 'unsupported_grant_type', 'unsupported_grant_type');

        limiter.hit([`signin:ip:${req.ip}`]);
        if (typeof body['password'] !== 'string' || typeof body['email'] !== 'string')
          throw validationFailed('An email address and a password are required');
        let email: string;
        try {
          email = getNormalizedEmail(body['email']);
        } catch {
          throw invalidCredentials();
        }
        limiter.hit([`signin:email:${email}`]);
        const user = await findUserByEmail(db, email);
        const ok = await verifyPassword(user?.encrypted_password, body['password']);
        if (!user || !ok || !isUserActive(user)) {
          await recordSecurityEvent(
            'sign_in_failed',
            { ip: req.ip, reason: 'invalid_credentials' },
            user?.id,
          );
          throw invalidCredentials();
        }
        if (!user.email_confirmed_at) {
          await recordSecurityEvent('sign_in_failed', { ip: req.ip, reason: 'email_not_confirmed' }, user.id);
          throw new AuthHttpError(400, 'email_not_confirmed', 'Email not confirmed');
        }
        // The event is written by the same call that opens the session (one round trip for both).
        const event = await recordSecurityEvent.prepareInline('sign_in_succeeded', { ip: req.ip }, user.id);
        return sessions.openSession(user, 'password', getRequestMeta(req), event, (error) =>
          recordSecurityEvent.reportInlineError(error),
        );
      });

      scope.get('/verify', async (req, reply: FastifyReply) => {
        const q = getQuery(req);
        const type = parseLinkType(q['type']) ?? 'signup';
        const redirectTo = getSafeRedirect(q['redirect_to'], config.publicUrl, defaultRedirects[type]);
        limiter.hit([`verify:ip:${req.ip}`]);
        const token = q['token'];
        const session =
          typeof token === 'string' && token.length > 0 && token.length <= 200 && parseLinkType(q['type'])
            ? await verifyLink(token, type, req)
            : undefined;
        reply.header('cache-control', 'no-store');
        if (!session) {
          return reply.redirect(
            withFragment(redirectTo, {
              error: 'access_denied',
              error_code: 'otp_expired',
              error_description: 'Email link is invalid or has expired',
            }),
            303,
          );
        }
        return reply.redirect(
          withFragment(redirectTo, {
            access_token: session.access_token,
            expires_at: session.expires_at,
            expires_in: session.expires_in,
            refresh_token: session.refresh_token,
            token_type: 'bearer',
            type,
          }),
          303,
        );
      });

      // verifyOtp({ token_hash, type }) posts the link's token and wants the session as JSON.
      scope.post('/verify', async (req) => {
        limiter.hit([`verify:ip:${req.ip}`]);
        const body = getBody(req);
        const type = parseLinkType(body['type']);
        const token = body['token_hash'] ?? body['token'];
        if (!type || typeof token !== 'string' || token === '' || token.length > 200)
          throw validationFailed('Verify requires a token_hash and a type of signup or recovery');
        const session = await verifyLink(token, type, req);
        if (!session) throw new AuthHttpError(403, 'otp_expired', 'Email link is invalid or has expired');
        return session;
      });

      scope.post('/recover', async (req) => {
        limiter.hit([`recover:ip:${req.ip}`]);
        const email = getNormalizedEmail(getBody(req)['email']);
        limiter.hit([`recover:email:${email}`]);
        const redirectTo = getSafeRedirect(
          getQuery(req)['redirect_to'],
          config.publicUrl,
          defaultRedirects.recovery,
        );
        const user = await findUserByEmail(db, email);
        // Same answer, in the same time, either way: only a registered address gets a mail, made and sent
        // after the answer, so the response's timing tells nothing about the address (issue 13).
        if (user && isUserActive(user)) afterAnswer(() => sendLinkMail(user, 'recovery', redirectTo));
        return {};
      });

      // resend({ type: 'signup', email }): a fresh confirmation link for an address not yet confirmed.
      scope.post('/resend', async (req, reply: FastifyReply) => {
        limiter.hit([`signup:ip:${req.ip}`]);
        const body = getBody(req);
        if (body['type'] !== 'signup') throw validationFailed('Only type signup can be resent');
        const email = getNormalizedEmail(body['email']);
        limiter.hit([`signup:email:${email}`]);
        const redirectTo = getSafeRedirect(
          getQuery(req)['redirect_to'],
          config.publicUrl,
          defaultRedirects.signup,
        );
        // Every caller gets the binding cookie, so its presence tells nothing about the address.
        const bindingHash = hashToken(useSignupBinding(req, reply));
        const user = await findUserByEmail(db, email);
        // Same answer, in the same time, either way; only an unconfirmed registered address gets a mail,
        // made after the answer. A link asked for from another browser than the one that signed up contests
        // the account (decision 0054).
        if (user && !user.email_confirmed_at && isUserActive(user))
          afterAnswer(async () => {
            await contestSignup(user.id, bindingHash);
            await sendLinkMail(user, 'signup', redirectTo, undefined, bindingHash);
          });
        return {};
      });

      scope.get('/user', async (req) => {
        const { user } = await getCaller(req);
        return toUserJson(user);
      });

      scope.put('/user', async (req) => {
        const { user, sessionId } = await getCaller(req);
        const body = getBody(req);
        if (body['email'] !== undefined && body['email'] !== null && body['email'] !== user.email)
          throw new AuthHttpError(
            422,
            'email_change_not_supported',
            'Changing the e-mail address is not supported',
          );
        if (body['phone'] !== undefined && body['phone'] !== null)
          throw new AuthHttpError(422, 'phone_provider_disabled', 'Phone sign-in is not enabled');
        const password = body['password'];
        if (password !== undefined && password !== null && typeof password !== 'string')
          throw validationFailed('password must be a string');
        const metadata = body['data'] !== undefined ? sanitizeUserMetadata(body['data']) : undefined;
        let passwordHash: string | undefined;
        if (typeof password === 'string') {
          assertPasswordAllowed(password);
          if (await verifyPassword(user.encrypted_password, password))
            throw new AuthHttpError(
              422,
              'same_password',
              'New password should be different from the old password.',
            );
          passwordHash = await hashPassword(password);
        }
        const updated = await db.transaction(async (tx) => {
          const r = await tx.query<UserRow>(
            `update auth.users set encrypted_password = coalesce($2, encrypted_password),
               raw_user_meta_data = raw_user_meta_data || coalesce($3::jsonb, '{}'::jsonb), updated_at = now()
             where id = $1 ${USER_RETURNING}`,
            [user.id, passwordHash ?? null, metadata ? JSON.stringify(metadata) : null],
          );
          return r.rows[0];
        });
        if (!updated) throw new AuthHttpError(404, 'user_not_found', 'User not found');
        if (passwordHash) {
          // A new password (a reset above all) signs the account out everywhere but here.
          await sessions.endSessions(user.id, 'all', sessionId);
          await recordSecurityEvent('password_changed', { ip: req.ip }, user.id);
        }
        return toUserJson(updated);
      });

      scope.post('/logout', async (req, reply) => {
        const scopeParam = getQuery(req)['scope'] ?? 'global';
        if (scopeParam !== 'global' && scopeParam !== 'local' && scopeParam !== 'others')
          throw validationFailed('scope must be global, local or others');
        const token = getBearer(req);
        if (!token) throw noAuthorization();
        let claims: JwtClaims;
        try {
          claims = await keys.verify(token);
        } catch {
          throw badJwt();
        }
        if (claims.role !== 'authenticated' || !claims.sub || typeof claims.session_id !== 'string')
          throw new AuthHttpError(403, 'bad_jwt', 'This endpoint requires a signed-in user token');
        // Already signed out is fine: sign-out is idempotent.
        if (scopeParam === 'local') await sessions.endSessions(claims.sub, [claims.session_id]);
        else if (scopeParam === 'global') await sessions.endSessions(claims.sub, 'all');
        else await sessions.endSessions(claims.sub, 'all', claims.session_id);
        return reply.code(204).send();
      });

      scope.post('/admin/users', async (req) => {
        await assertServiceRole(req);
        const body = getBody(req);
        const email = getNormalizedEmail(body['email']);
        const password = body['password'];
        if (password !== undefined && typeof password !== 'string')
          throw validationFailed('password must be a string');
        if (typeof password === 'string') assertPasswordAllowed(password);
        const metadata = sanitizeUserMetadata(body['user_metadata'] ?? body['data']);
        const passwordHash = typeof password === 'string' ? await hashPassword(password) : null;
        try {
          const r = await db.query<UserRow>(
            `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
               raw_app_meta_data, raw_user_meta_data)
             values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2, $3,
               case when $4 then now() end, $5, $6)
             ${USER_RETURNING}`,
            [
              crypto.randomUUID(),
              email,
              passwordHash,
              body['email_confirm'] === true,
              JSON.stringify({ provider: 'email', providers: ['email'] }),
              JSON.stringify(metadata),
            ],
          );
          const created = r.rows[0];
          if (!created) throw new Error('insert returned no row');
          return toUserJson(created);
        } catch (e) {
          if (isDatabaseError(e) && e.code === '23505')
            throw new AuthHttpError(
              422,
              'email_exists',
              'A user with this email address has already been registered',
            );
          throw e;
        }
      });

      scope.get('/admin/users/:id', async (req) => {
        await assertServiceRole(req);
        const id = (req.params as { id: string }).id;
        if (!UUID_PATTERN.test(id)) throw validationFailed('user id must be a UUID');
        const user = await findUserById(db, id);
        if (!user) throw new AuthHttpError(404, 'user_not_found', 'User not found');
        return toUserJson(user);
      });

      scope.delete('/admin/users/:id', async (req) => {
        await assertServiceRole(req);
        const id = (req.params as { id: string }).id;
        if (!UUID_PATTERN.test(id)) throw validationFailed('user id must be a UUID');
        const soft = getBody(req)['should_soft_delete'] === true;
        const user = await findUserById(db, id);
        if (!user) throw new AuthHttpError(404, 'user_not_found', 'User not found');
        if (soft) {
          await db.transaction(async (tx) => {
            await tx.query(`update auth.users set deleted_at = now(), updated_at = now() where id = $1`, [
              id,
            ]);
            await tx.query(`delete from auth.sessions where user_id = $1`, [id]);
          });
        } else {
          // Sessions, refresh tokens and mailed links go with the user (on delete cascade).
          await db.query(`delete from auth.users where id = $1`, [id]);
        }
        sessions.forget(id, 'all');
        ctx.events.emit('sessions-ended', { userId: id, sessionIds: 'all' });
        return toUserJson(user);
      });
    },
    { prefix: '/auth/v1' },
  );
}
import { readBearer } from '../caller/caller.ts';
