// /auth/v1 routes of the mailed links: sign-up, verify (the link opened, or verifyOtp), recover and resend.
// Each answers the same, in the same time, whether the address is registered or not (issue 13, decision 0054).
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isDatabaseError } from '../db/database.ts';
import { AuthHttpError, validationFailed } from './errors.ts';
import { assertPasswordAllowed, hashPassword } from './passwords.ts';
import { withFragment } from './redirects.ts';
import { hashToken } from './tokens.ts';
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
import { USER_RETURNING, getBody, getQuery, type AuthKit } from './auth-kit.ts';

export function registerLinkRoutes(scope: FastifyInstance, kit: AuthKit): void {
  const {
    db,
    limiter,
    useSignupBinding,
    contestSignup,
    sendLinkMail,
    afterAnswer,
    redirectFor,
    verifyLink,
    parseLinkType,
  } = kit;
  scope.post('/signup', async (req, reply: FastifyReply) => {
    limiter.hit([`signup:ip:${req.ip}`]);
    const body = getBody(req);
    const email = getNormalizedEmail(body['email']);
    if (typeof body['password'] !== 'string') throw validationFailed('Signup requires a valid password');
    const password = body['password'];
    assertPasswordAllowed(password);
    const metadata = sanitizeUserMetadata(body['data']);
    limiter.hit([`signup:email:${email}`]);
    const redirectTo = redirectFor(req, 'signup');
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

  scope.get('/verify', async (req, reply: FastifyReply) => {
    const q = getQuery(req);
    const type = parseLinkType(q['type']) ?? 'signup';
    const redirectTo = redirectFor(req, type);
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
    const redirectTo = redirectFor(req, 'recovery');
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
    const redirectTo = redirectFor(req, 'signup');
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
}
