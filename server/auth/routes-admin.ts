// /auth/v1/admin/users: the service role creates, reads and deletes accounts.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isDatabaseError } from '../db/database.ts';
import { AuthHttpError, validationFailed } from './errors.ts';
import { assertPasswordAllowed, hashPassword } from './passwords.ts';
import { findUserById, getNormalizedEmail, sanitizeUserMetadata, toUserJson, type UserRow } from './users.ts';
import { USER_RETURNING, UUID_PATTERN, getBody, type AuthKit } from './auth-kit.ts';

export function registerAdminRoutes(scope: FastifyInstance, kit: AuthKit): void {
  const { ctx, db, sessions, assertServiceRole } = kit;
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
        await tx.query(`update auth.users set deleted_at = now(), updated_at = now() where id = $1`, [id]);
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
}
