// /auth/v1 routes that open and end sessions: the password and refresh-token grants of /token, and /logout.
import type { FastifyInstance } from 'fastify';
import { AuthHttpError, invalidCredentials, validationFailed } from './errors.ts';
import { verifyPassword } from './passwords.ts';
import { findUserByEmail, getNormalizedEmail, isUserActive } from './users.ts';
import { getBody, getQuery, getRequestMeta, type AuthKit } from './auth-kit.ts';

export function registerSessionRoutes(scope: FastifyInstance, kit: AuthKit): void {
  const { db, sessions, limiter, recordSecurityEvent, readMemberClaims } = kit;
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
      await recordSecurityEvent('sign_in_failed', { ip: req.ip, reason: 'invalid_credentials' }, user?.id);
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

  scope.post('/logout', async (req, reply) => {
    const scopeParam = getQuery(req)['scope'] ?? 'global';
    if (scopeParam !== 'global' && scopeParam !== 'local' && scopeParam !== 'others')
      throw validationFailed('scope must be global, local or others');
    const claims = await readMemberClaims(req);
    // Already signed out is fine: sign-out is idempotent.
    if (scopeParam === 'local') await sessions.endSessions(claims.sub, [claims.session_id]);
    else if (scopeParam === 'global') await sessions.endSessions(claims.sub, 'all');
    else await sessions.endSessions(claims.sub, 'all', claims.session_id);
    return reply.code(204).send();
  });
}
