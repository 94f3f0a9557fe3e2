// The whole account journey through supabase-js against the real server: sign-up, mail, verify, sign-in,
// refresh and rotation reuse, sign-out, recovery and reset ending the other sessions.
import * as jose from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import {
  createAuthClient,
  findVerifyLink,
  followLink,
  getLatestLink,
  getMailsTo,
  makeBrowser,
  makeEmail,
  signUpConfirmed,
  waitForMails,
} from './auth-support.ts';

const PASSWORD = 'Correct-Horse-42';

describe.each(getDatabaseKinds())('auth journey on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, { AUTH_RATE_LIMIT_MAX: '1000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function signIn(email: string, password = PASSWORD) {
    const client = createAuthClient(t);
    const { data, error } = await client.auth.signInWithPassword({ email, password });
    if (error) throw error;
    return { client, session: data.session };
  }

  async function getUserStatus(accessToken: string): Promise<number> {
    const res = await fetch(`${t.url}/auth/v1/user`, {
      headers: { apikey: t.anonKey, authorization: `Bearer ${accessToken}` },
    });
    return res.status;
  }

  async function rawRefresh(refreshToken: string) {
    const res = await fetch(`${t.url}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { apikey: t.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: refreshToken }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('signs up with confirmation required, then confirms through the mailed link', async () => {
    const email = makeEmail();
    const client = createAuthClient(t);
    const { data, error } = await client.auth.signUp({
      email: email.toUpperCase(),
      password: PASSWORD,
      options: {
        data: { name: '  <b>Ann</b> Lee  ' },
        emailRedirectTo: `${t.url}/auth/callback?type=signup`,
      },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(data.user?.identities).toHaveLength(1);
    expect(data.user?.user_metadata['name']).toBe('&lt;b&gt;Ann&lt;/b&gt; Lee');
    expect(data.user?.email_confirmed_at).toBeUndefined();

    const refused = await client.auth.signInWithPassword({ email, password: PASSWORD });
    expect(refused.error?.status).toBe(400);
    expect(refused.error?.code).toBe('email_not_confirmed');
    expect(refused.error?.message).toBe('Email not confirmed');
    expect(refused.data.session).toBeNull();

    const mails = await getMailsTo(t, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/confirm/i);
    const link = await getLatestLink(t, email, 'signup');
    expect(link.startsWith(`${t.url}/auth/v1/verify?`)).toBe(true);
    // Every link in the mail points at this instance only.
    for (const m of `${mails[0]?.text} ${mails[0]?.html}`.matchAll(/https?:\/\/[^\s"<]+/g))
      expect(m[0].startsWith(`${t.url}/`)).toBe(true);

    const followed = await followLink(link);
    expect(followed.status).toBe(303);
    expect(`${followed.location.origin}${followed.location.pathname}${followed.location.search}`).toBe(
      `${t.url}/auth/callback?type=signup`,
    );
    const f = followed.fragment;
    expect(f.get('type')).toBe('signup');
    expect(f.get('token_type')).toBe('bearer');
    expect(Number(f.get('expires_in'))).toBeGreaterThan(0);
    expect(Number(f.get('expires_at'))).toBeGreaterThan(Date.now() / 1000);
    const accessToken = f.get('access_token') ?? '';
    const refreshToken = f.get('refresh_token') ?? '';
    expect(followed.body).not.toContain(accessToken);
    expect(followed.body).not.toContain(refreshToken);
    expect(await getUserStatus(accessToken)).toBe(200);

    // The link works once.
    const again = await followLink(link);
    expect(again.fragment.get('access_token')).toBeNull();
    expect(again.fragment.get('error_code')).toBe('otp_expired');

    const { session } = await signIn(email);
    expect(session.user.email_confirmed_at).toBeTruthy();
  });

  it('resends the confirmation link to an unconfirmed address only, answering alike', async () => {
    const email = makeEmail('resend');
    const client = createAuthClient(t);
    // One browser signs up and asks again (it keeps the auth server's cookies, as a browser does).
    const browser = makeBrowser(t);
    await browser.signUp(email, PASSWORD);
    expect(await browser.resend(email)).toBe(200);
    expect(await waitForMails(t, email, 2)).toHaveLength(2);
    const unknown = makeEmail('nobody');
    expect((await client.auth.resend({ type: 'signup', email: unknown })).error).toBeNull();
    expect(await getMailsTo(t, unknown)).toHaveLength(0);

    // The newest link confirms with the sign-up's password; the older one died with it.
    const links = (await getMailsTo(t, email)).map((m) => findVerifyLink(m.text, 'signup')!);
    const confirmed = await browser.follow(links[0]!);
    expect(confirmed.fragment.get('access_token')).toBeTruthy();
    expect((await followLink(links[1]!)).fragment.get('error_code')).toBe('otp_expired');
    await signIn(email);
    const mailsAfter = (await getMailsTo(t, email)).length;
    expect((await client.auth.resend({ type: 'signup', email })).error).toBeNull();
    expect(await getMailsTo(t, email)).toHaveLength(mailsAfter);
  });

  it('issues access tokens with the claims Supabase puts in them, verifiable with the published JWKS', async () => {
    const email = makeEmail();
    await signUpConfirmed(t, email, PASSWORD, 'Bea');
    const { client, session } = await signIn(email);
    expect(session.token_type).toBe('bearer');
    expect(session.expires_at).toBeGreaterThan(Date.now() / 1000);

    const jwks = jose.createRemoteJWKSet(new URL(`${t.url}/auth/v1/.well-known/jwks.json`));
    const { payload } = await jose.jwtVerify(session.access_token, jwks);
    expect(payload).toMatchObject({
      sub: session.user.id,
      role: 'authenticated',
      aud: 'authenticated',
      email,
      aal: 'aal1',
      is_anonymous: false,
      app_metadata: { provider: 'email' },
      user_metadata: { name: 'Bea' },
    });
    expect(typeof payload['session_id']).toBe('string');
    expect(payload['amr']).toEqual([expect.objectContaining({ method: 'password' })]);
    expect(payload.exp! - payload.iat!).toBe(3600);

    const { data, error } = await client.auth.getUser();
    expect(error).toBeNull();
    expect(data.user?.id).toBe(session.user.id);
    await expect(t.server.ctx.verifyToken(session.access_token)).resolves.toMatchObject({
      sub: session.user.id,
    });
    // supabase-js verifies asymmetric tokens itself with the JWKS it fetches.
    const claims = await client.auth.getClaims();
    expect(claims.error).toBeNull();
    expect(claims.data?.claims).toMatchObject({ sub: session.user.id, role: 'authenticated' });
  });

  it('rotates refresh tokens, and reusing a rotated one revokes the whole family', async () => {
    const email = makeEmail();
    await signUpConfirmed(t, email, PASSWORD);
    const { client, session: first } = await signIn(email);

    const { data, error } = await client.auth.refreshSession();
    expect(error).toBeNull();
    const second = data.session!;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await getUserStatus(second.access_token)).toBe(200);

    const reuse = await rawRefresh(first.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body['error_code']).toBe('refresh_token_already_used');
    expect(JSON.stringify(reuse.body)).not.toContain(first.refresh_token);

    // The family is gone: the newest token and the session's access tokens are refused too.
    expect((await rawRefresh(second.refresh_token)).status).toBe(400);
    expect(await getUserStatus(second.access_token)).toBe(403);
    await expect(t.server.ctx.verifyToken(second.access_token)).rejects.toThrow();
    const gone = await client.auth.getUser(second.access_token);
    expect(gone.error?.name).toBe('AuthSessionMissingError');
  });

  it('signs out one session locally and all of them globally; old tokens are refused everywhere', async () => {
    const email = makeEmail();
    await signUpConfirmed(t, email, PASSWORD);
    const a = await signIn(email);
    const b = await signIn(email);
    const c = await signIn(email);

    expect((await a.client.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(await getUserStatus(a.session.access_token)).toBe(403);
    await expect(t.server.ctx.verifyToken(a.session.access_token)).rejects.toThrow();
    expect((await rawRefresh(a.session.refresh_token)).status).toBe(400);
    expect(await getUserStatus(b.session.access_token)).toBe(200);

    // A token checked once is cached as live; a sign-out still refuses it at once in this process.
    await t.server.ctx.verifyToken(c.session.access_token);
    expect((await b.client.auth.signOut({ scope: 'global' })).error).toBeNull();
    for (const s of [b.session, c.session]) {
      expect(await getUserStatus(s.access_token)).toBe(403);
      await expect(t.server.ctx.verifyToken(s.access_token)).rejects.toThrow();
      expect((await rawRefresh(s.refresh_token)).status).toBe(400);
    }
    const { data } = await b.client.auth.getSession();
    expect(data.session).toBeNull();

    // The REST part verifies through ctx.verifyToken too: the replayed token is refused there.
    const rest = async (token: string) =>
      (
        await fetch(`${t.url}/rest/v1/profiles?select=id`, {
          headers: { apikey: t.anonKey, authorization: `Bearer ${token}` },
        })
      ).status;
    expect(await rest(b.session.access_token)).toBe(401);
    const d = await signIn(email);
    expect(await rest(d.session.access_token)).toBe(200);
  });

  it('recovers a password through the mailed link; the reset ends every other session', async () => {
    const email = makeEmail();
    await signUpConfirmed(t, email, PASSWORD);
    const s1 = await signIn(email);
    const s2 = await signIn(email);
    const ended: unknown[] = [];
    const onEnded = (e: unknown) => ended.push(e);
    t.server.ctx.events.on('sessions-ended', onEnded);

    const client = createAuthClient(t);
    const res = await client.auth.resetPasswordForEmail(email, { redirectTo: `${t.url}/reset-password` });
    expect(res).toEqual({ data: {}, error: null });
    const link = await getLatestLink(t, email, 'recovery');
    const followed = await followLink(link);
    expect(followed.status).toBe(303);
    expect(followed.location.pathname).toBe('/reset-password');
    expect(followed.fragment.get('type')).toBe('recovery');
    const accessToken = followed.fragment.get('access_token') ?? '';
    const refreshToken = followed.fragment.get('refresh_token') ?? '';

    const recovery = createAuthClient(t);
    expect(
      (await recovery.auth.setSession({ access_token: accessToken, refresh_token: refreshToken })).error,
    ).toBeNull();
    const weak = await recovery.auth.updateUser({ password: 'short' });
    expect(weak.error?.code).toBe('weak_password');
    const same = await recovery.auth.updateUser({ password: PASSWORD });
    expect(same.error?.code).toBe('same_password');
    const newPassword = 'Another-Good-Passphrase-7';
    const { error } = await recovery.auth.updateUser({ password: newPassword });
    expect(error).toBeNull();
    t.server.ctx.events.off('sessions-ended', onEnded);

    for (const s of [s1.session, s2.session]) {
      expect((await rawRefresh(s.refresh_token)).status).toBe(400);
      expect(await getUserStatus(s.access_token)).toBe(403);
    }
    expect(await getUserStatus(accessToken)).toBe(200);
    // One event naming the other sessions (the two sign-ins and the one the sign-up link opened), not this one.
    const sid = (token: string) => jose.decodeJwt(token)['session_id'];
    expect(ended).toHaveLength(1);
    expect(ended[0]).toEqual({
      userId: s1.session.user.id,
      sessionIds: expect.arrayContaining([sid(s1.session.access_token), sid(s2.session.access_token)]),
    });
    expect((ended[0] as { sessionIds: string[] }).sessionIds).toHaveLength(3);
    expect((ended[0] as { sessionIds: string[] }).sessionIds).not.toContain(sid(accessToken));

    const old = await createAuthClient(t).auth.signInWithPassword({ email, password: PASSWORD });
    expect(old.error?.code).toBe('invalid_credentials');
    await signIn(email, newPassword);

    // The link works once.
    const again = await followLink(link);
    expect(again.fragment.get('access_token')).toBeNull();
    expect(again.location.pathname).toBe('/reset-password');
    expect(again.fragment.get('error_code')).toBe('otp_expired');
  });

  it('refuses an expired reset link', async () => {
    const email = makeEmail();
    await signUpConfirmed(t, email, PASSWORD);
    await createAuthClient(t).auth.resetPasswordForEmail(email);
    const link = await getLatestLink(t, email, 'recovery');
    await t.db.query(
      `update auth.one_time_tokens set expires_at = now() - interval '1 second'
       where user_id = (select id from auth.users where email = $1)`,
      [email],
    );
    const followed = await followLink(link);
    expect(followed.fragment.get('access_token')).toBeNull();
    expect(followed.fragment.get('error_code')).toBe('otp_expired');
    expect(followed.location.pathname).toBe('/reset-password');
  });
});
