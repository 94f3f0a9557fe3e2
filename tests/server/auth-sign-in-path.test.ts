// What one password sign-in writes (auth.open_session does it in one call), and that a security event
// that cannot be written never costs the member their sign-in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createAuthClient, makeEmail, signUpConfirmed } from './auth-support.ts';

const PASSWORD = 'Correct-Horse-42';

describe.each(getDatabaseKinds())('password sign-in writes on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function countRows(sql: string, userId: string): Promise<number> {
    return (await t.db.query<{ n: number }>(sql, [userId])).rows[0]?.n ?? -1;
  }

  it('writes the session, its refresh token, the sign-in time and one event', async () => {
    const email = makeEmail('writes');
    await signUpConfirmed(t, email, PASSWORD);
    const { data, error } = await createAuthClient(t).auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    const userId = data.user!.id;
    const sessions = await t.db.query<{ id: string; amr_method: string; ip: string | null }>(
      'select id, amr_method, ip from auth.sessions where user_id = $1 and amr_method = $2',
      [userId, 'password'],
    );
    expect(sessions.rows).toHaveLength(1);
    expect(sessions.rows[0]?.ip).toBe('127.0.0.1');
    const sessionId = sessions.rows[0]!.id;
    const tokens = await t.db.query<{ revoked: boolean; parent_hash: string | null }>(
      'select revoked, parent_hash from auth.refresh_tokens where session_id = $1',
      [sessionId],
    );
    expect(tokens.rows).toEqual([{ revoked: false, parent_hash: null }]);
    const user = await t.db.query<{ last_sign_in_at: Date | string | null }>(
      'select last_sign_in_at from auth.users where id = $1',
      [userId],
    );
    expect(user.rows[0]?.last_sign_in_at).not.toBeNull();
    // The answer carries the row as the same call updated it.
    expect(Date.parse(data.user!.last_sign_in_at!)).toBe(new Date(user.rows[0]!.last_sign_in_at!).getTime());
    expect(
      await countRows(
        `select count(*)::int as n from public.security_events where user_id = $1 and event = 'sign_in_succeeded'`,
        userId,
      ),
    ).toBe(1);
    // The refresh token it handed out is the one stored: it rotates once.
    const refreshed = await createAuthClient(t).auth.refreshSession({
      refresh_token: data.session!.refresh_token,
    });
    expect(refreshed.error).toBeNull();
  });

  it('signs the member in even when the security event cannot be written', async () => {
    const email = makeEmail('noevent');
    await signUpConfirmed(t, email, PASSWORD);
    await t.db.exec(`
      create function public.test_refuse_sign_in_events() returns trigger language plpgsql as $$
      begin
        if new.event = 'sign_in_succeeded' then raise exception 'refused by test'; end if;
        return new;
      end $$;
      create trigger test_refuse_sign_in_events before insert on public.security_events
        for each row execute function public.test_refuse_sign_in_events();`);
    try {
      const { data, error } = await createAuthClient(t).auth.signInWithPassword({
        email,
        password: PASSWORD,
      });
      expect(error).toBeNull();
      expect(data.session?.access_token).toBeTruthy();
      const userId = data.user!.id;
      expect(
        await countRows(
          `select count(*)::int as n from auth.sessions where user_id = $1 and amr_method = 'password'`,
          userId,
        ),
      ).toBe(1);
      expect(
        await countRows(
          `select count(*)::int as n from public.security_events where user_id = $1 and event = 'sign_in_succeeded'`,
          userId,
        ),
      ).toBe(0);
    } finally {
      await t.db.exec(`drop trigger test_refuse_sign_in_events on public.security_events;
        drop function public.test_refuse_sign_in_events();`);
    }
  });
});
