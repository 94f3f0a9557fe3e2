// /auth/v1/user: the signed-in member reads and updates their account (password, metadata).
import type { FastifyInstance } from 'fastify';
import { AuthHttpError, validationFailed } from './errors.ts';
import { assertPasswordAllowed, hashPassword, verifyPassword } from './passwords.ts';
import { sanitizeUserMetadata, toUserJson, type UserRow } from './users.ts';
import { USER_RETURNING, getBody, type AuthKit } from './auth-kit.ts';

export function registerUserRoutes(scope: FastifyInstance, kit: AuthKit): void {
  const { db, sessions, recordSecurityEvent, getCaller } = kit;
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
}
