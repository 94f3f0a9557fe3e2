// The auth rows of security-tests.md that are not about rate limits: enumeration, password policy,
// redirects, API keys, admin deletion, bad input, and security events.
import crypto from 'node:crypto';
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

/** The shape of a JSON value: its keys and value types, recursively, without the values. */
function getShape(v: unknown): unknown {
  if (Array.isArray(v)) return ['array'];
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, getShape(x)]),
    );
  return typeof v;
}

describe.each(getDatabaseKinds())('auth security on %s', (kind) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(kind, { AUTH_RATE_LIMIT_MAX: '1000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${t.url}/auth/v1${path}`, {
      method,
      headers: { apikey: t.anonKey, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    };
  }

  describe('enumeration', () => {
    let known: string;
    beforeAll(async () => {
      known = makeEmail('known');
      await signUpConfirmed(t, known, PASSWORD);
    });

    it('sign-up answers a registered and a new address with the same status and body shape', async () => {
      const unknown = makeEmail('unknown');
      const mailsBefore = (await getMailsTo(t, known)).length;
      const a = await call('POST', '/signup', {
        email: known,
        password: 'Some-Other-Pass-1',
        data: { name: 'X' },
      });
      const b = await call('POST', '/signup', {
        email: unknown,
        password: 'Some-Other-Pass-1',
        data: { name: 'X' },
      });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(getShape(a.json)).toEqual(getShape(b.json));
      // As GoTrue (and the spec's "account already exists" message) has it: no identities, no mail.
      expect(a.json['identities']).toEqual([]);
      expect(b.json['identities']).toHaveLength(1);
      expect(await getMailsTo(t, known)).toHaveLength(mailsBefore);
      expect(await getMailsTo(t, unknown)).toHaveLength(1);
      // The registered account kept its password.
      expect(
        (await createAuthClient(t).auth.signInWithPassword({ email: known, password: PASSWORD })).error,
      ).toBeNull();
    });

    it('sign-in with a wrong password and with an unknown address answer alike', async () => {
      const a = await call('POST', '/token?grant_type=password', {
        email: known,
        password: 'Wrong-Password-9',
      });
      const b = await call('POST', '/token?grant_type=password', {
        email: makeEmail('nobody'),
        password: 'Wrong-Password-9',
      });
      expect(a.status).toBe(400);
      expect(b.status).toBe(400);
      expect(a.json).toEqual(b.json);
      expect(a.json).toEqual({
        code: 400,
        error_code: 'invalid_credentials',
        msg: 'Invalid login credentials',
      });
      const viaClient = await createAuthClient(t).auth.signInWithPassword({
        email: known,
        password: 'nope-nope-nope',
      });
      expect(viaClient.error?.code).toBe('invalid_credentials');
      expect(viaClient.error?.message).toBe('Invalid login credentials');
    });

    it('recover answers a registered and an unknown address alike; only the registered one gets mail', async () => {
      const unknown = makeEmail('nobody');
      const before = (await getMailsTo(t, known)).length;
      const a = await call('POST', '/recover', { email: known });
      const b = await call('POST', '/recover', { email: unknown });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.text).toBe(b.text);
      expect(a.json).toEqual({});
      expect(await waitForMails(t, known, before + 1)).toHaveLength(before + 1);
      expect(await getMailsTo(t, unknown)).toHaveLength(0);
    });

    it.runIf(kind === 'postgres')(
      'recover answers without waiting for the mail, so its time does not tell a registered address',
      async () => {
        const before = (await getMailsTo(t, known)).length;
        // Another connection holds the account's row: making the link waits until it lets go.
        const pg = await import('pg');
        const holder = new pg.default.Client({ connectionString: t.db.url });
        await holder.connect();
        try {
          await holder.query('begin');
          await holder.query('select 1 from auth.users where email = $1 for update', [known]);
          const started = Date.now();
          const a = await call('POST', '/recover', { email: known });
          expect(a.status).toBe(200);
          expect(Date.now() - started).toBeLessThan(2000);
          expect(await getMailsTo(t, known)).toHaveLength(before);
        } finally {
          await holder.query('rollback');
          await holder.end();
        }
        expect(await waitForMails(t, known, before + 1)).toHaveLength(before + 1);
      },
    );
  });

  describe('password policy', () => {
    async function signUpAndSignIn(password: string) {
      const email = makeEmail('policy');
      await signUpConfirmed(t, email, password);
      return createAuthClient(t).auth.signInWithPassword({ email, password });
    }

    it('refuses 7 characters with the spec message', async () => {
      const { error } = await createAuthClient(t).auth.signUp({ email: makeEmail(), password: 'Abc-123' });
      expect(error?.status).toBe(422);
      expect(error?.code).toBe('weak_password');
      expect(error?.message).toBe('Password should be at least 8 characters.');
    });

    it('refuses a very common password', async () => {
      const email = makeEmail();
      const { error } = await createAuthClient(t).auth.signUp({ email, password: 'Password123' });
      expect(error?.code).toBe('weak_password');
      expect(error?.message).toMatch(/known to be weak/);
      expect(await getMailsTo(t, email)).toHaveLength(0);
    });

    it('accepts 8, 64 and 128 characters and they round-trip', async () => {
      for (const length of [8, 64, 128]) {
        // Random, so no repeat or sequence makes it trivial (those are refused, below).
        const password = `xY7-${crypto.randomBytes(96).toString('base64url')}`.slice(0, length);
        const { data, error } = await signUpAndSignIn(password);
        expect(error).toBeNull();
        expect(data.session?.access_token).toBeTruthy();
      }
    });

    it("refuses trivial patterns and leaked passwords beyond the short list, with GoTrue's message", async () => {
      for (const password of [
        'aaaaaaaa',
        'abcdefgh1',
        'qwertyuiop',
        'Passw0rd!',
        'iloveyou2',
        'Aaaaaaaa1',
        'Summer2024',
      ]) {
        const email = makeEmail('trivial');
        const { error } = await createAuthClient(t).auth.signUp({ email, password });
        expect(error?.code, password).toBe('weak_password');
        expect(error?.message).toBe(
          'Password is known to be weak and easy to guess, please choose a different one.',
        );
        expect(await getMailsTo(t, email)).toHaveLength(0);
      }
    });

    it('refuses 129 characters', async () => {
      const { error } = await createAuthClient(t).auth.signUp({
        email: makeEmail(),
        password: 'a'.repeat(129),
      });
      expect(error?.code).toBe('weak_password');
    });

    it('accepts unicode and matches it whatever the composition', async () => {
      const composed = 'Ünïcødé-Пароль-密码-🔐';
      const email = makeEmail('unicode');
      await signUpConfirmed(t, email, composed);
      const client = createAuthClient(t);
      expect((await client.auth.signInWithPassword({ email, password: composed })).error).toBeNull();
      const decomposed = composed.normalize('NFD');
      expect(decomposed).not.toBe(composed);
      expect((await client.auth.signInWithPassword({ email, password: decomposed })).error).toBeNull();
    });

    it('checks a changed password against the same policy', async () => {
      const email = makeEmail();
      await signUpConfirmed(t, email, PASSWORD);
      const client = createAuthClient(t);
      await client.auth.signInWithPassword({ email, password: PASSWORD });
      const { error } = await client.auth.updateUser({ password: '1234567' });
      expect(error?.code).toBe('weak_password');
      const common = await client.auth.updateUser({ password: 'qwerty123' });
      expect(common.error?.code).toBe('weak_password');
      expect(
        (await createAuthClient(t).auth.signInWithPassword({ email, password: PASSWORD })).error,
      ).toBeNull();
    });
  });

  describe('account pre-hijacking (issue 13)', () => {
    const attackerPassword = 'Attacker-Chosen-1';
    const victimPassword = 'Victim-Chosen-22';
    const canSignIn = async (email: string, password: string) =>
      (await createAuthClient(t).auth.signInWithPassword({ email, password })).error === null;
    const storedHash = async (email: string) =>
      (
        await t.db.query<{ h: string | null }>(
          'select encrypted_password h from auth.users where email = $1',
          [email],
        )
      ).rows[0]?.h;
    const realId = async (email: string) =>
      (await t.db.query<{ id: string }>('select id from auth.users where email = $1', [email])).rows[0]?.id;

    it('a repeated sign-up never changes the password nor reveals the account id', async () => {
      const email = makeEmail('victim');
      const attacker = makeBrowser(t);
      const victim = makeBrowser(t);
      expect((await attacker.signUp(email, attackerPassword)).status).toBe(200);
      const before = await storedHash(email);
      const again = await victim.signUp(email, victimPassword);
      expect(again.status).toBe(200);
      // Answered like a first sign-up (an identity: "check your e-mail"), with a made-up id.
      expect((again.user['identities'] as unknown[]).length).toBe(1);
      expect(again.user['id']).not.toBe(await realId(email));
      expect(await storedHash(email)).toBe(before);
    });

    it("the victim confirming from the newest mail (the attacker's) leaves the attacker no password", async () => {
      const email = makeEmail('victim');
      const attacker = makeBrowser(t);
      const victim = makeBrowser(t);
      await attacker.signUp(email, attackerPassword);
      await victim.signUp(email, victimPassword);
      await attacker.signUp(email, 'Attacker-Again-333');
      const mails = await getMailsTo(t, email);
      // Newest first: the attacker's second sign-up. The victim clicks it in their own browser.
      const newest = findVerifyLink(mails[0]!.text, 'signup')!;
      const confirmed = await victim.follow(newest);
      expect(confirmed.fragment.get('access_token')).toBeTruthy();
      expect(await canSignIn(email, attackerPassword)).toBe(false);
      expect(await canSignIn(email, 'Attacker-Again-333')).toBe(false);
      expect(await storedHash(email)).toBeNull();
      // The other links died with it.
      for (const m of mails.slice(1))
        expect((await attacker.follow(findVerifyLink(m.text, 'signup')!)).fragment.get('error_code')).toBe(
          'otp_expired',
        );
    });

    it("the victim confirming their own sign-up's mail in their browser keeps their password, not the attacker's", async () => {
      const email = makeEmail('victim');
      const attacker = makeBrowser(t);
      const victim = makeBrowser(t);
      await attacker.signUp(email, attackerPassword);
      await victim.signUp(email, victimPassword);
      const [victimMail] = await getMailsTo(t, email);
      expect(
        (await victim.follow(findVerifyLink(victimMail!.text, 'signup')!)).fragment.get('access_token'),
      ).toBeTruthy();
      expect(await canSignIn(email, victimPassword)).toBe(true);
      expect(await canSignIn(email, attackerPassword)).toBe(false);
    });

    it('a confirmation link asked for again from another browser contests the account too', async () => {
      const email = makeEmail('victim');
      const attacker = makeBrowser(t);
      const victim = makeBrowser(t);
      await attacker.signUp(email, attackerPassword);
      expect(await victim.resend(email)).toBe(200);
      const [resent] = await waitForMails(t, email, 2);
      expect(
        (await victim.follow(findVerifyLink(resent!.text, 'signup')!)).fragment.get('access_token'),
      ).toBeTruthy();
      expect(await canSignIn(email, attackerPassword)).toBe(false);
    });

    it('an uncontested sign-up confirmed on another device keeps its password', async () => {
      const email = makeEmail('single');
      await makeBrowser(t).signUp(email, victimPassword);
      const [mail] = await getMailsTo(t, email);
      // The phone's mail app: a browser without the sign-up's cookie.
      expect(
        (await followLink(findVerifyLink(mail!.text, 'signup')!)).fragment.get('access_token'),
      ).toBeTruthy();
      expect(await canSignIn(email, victimPassword)).toBe(true);
    });
  });

  it('sanitises the name in sign-up metadata and caps its length', async () => {
    const email = makeEmail();
    const { data } = await createAuthClient(t).auth.signUp({
      email,
      password: PASSWORD,
      options: { data: { name: `<script>alert(1)</script>${'n'.repeat(300)}`, is_admin: true } },
    });
    const name = data.user?.user_metadata['name'] as string;
    expect(name.startsWith('&lt;script&gt;alert(1)&lt;/script&gt;')).toBe(true);
    expect(name.length).toBe(100);
    expect(data.user?.user_metadata['is_admin']).toBeUndefined();
  });

  it('never redirects a mailed link to another origin', async () => {
    const email = makeEmail();
    await createAuthClient(t).auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: 'https://evil.example/steal' },
    });
    const link = await getLatestLink(t, email, 'signup');
    expect(link).not.toContain('evil.example');
    const tampered = new URL(link);
    tampered.searchParams.set('redirect_to', '//evil.example/steal');
    const followed = await followLink(tampered.toString());
    expect(followed.location.origin).toBe(t.url);
    expect(followed.location.pathname).toBe('/auth/callback');
    expect(followed.fragment.get('access_token')).toBeTruthy();
  });

  it('asks for an API key on every call but the mailed link and the JWKS', async () => {
    const none = await fetch(`${t.url}/auth/v1/settings`);
    expect(none.status).toBe(401);
    const email = makeEmail();
    await signUpConfirmed(t, email, PASSWORD);
    const { data } = await createAuthClient(t).auth.signInWithPassword({ email, password: PASSWORD });
    const userTokenAsKey = await fetch(`${t.url}/auth/v1/settings`, {
      headers: { apikey: data.session!.access_token },
    });
    expect(userTokenAsKey.status).toBe(401);
    const forged = await fetch(`${t.url}/auth/v1/settings`, {
      headers: { apikey: `${t.anonKey.slice(0, -4)}AAAA` },
    });
    expect(forged.status).toBe(401);
    expect((await fetch(`${t.url}/auth/v1/settings`, { headers: { apikey: t.anonKey } })).status).toBe(200);
    expect((await fetch(`${t.url}/auth/v1/.well-known/jwks.json`)).status).toBe(200);
  });

  it("a wrong bearer at /logout, /user and /admin gets GoTrue's answer for it", async () => {
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const answers = [
      await call('POST', '/logout'),
      await call('POST', '/logout', undefined, bearer('not.a.jwt')),
      // An API key is a token, but not a member's: nothing to sign out.
      await call('POST', '/logout', undefined, bearer(t.serviceRoleKey)),
      await call('GET', '/user', undefined, bearer(t.anonKey)),
      await call('GET', `/admin/users/${crypto.randomUUID()}`),
      await call('GET', `/admin/users/${crypto.randomUUID()}`, undefined, bearer('not.a.jwt')),
      await call('GET', `/admin/users/${crypto.randomUUID()}`, undefined, bearer(t.anonKey)),
    ];
    expect(answers.map((a) => [a.status, a.json['error_code']])).toEqual([
      [401, 'no_authorization'],
      [403, 'bad_jwt'],
      [403, 'bad_jwt'],
      [403, 'bad_jwt'],
      [401, 'no_authorization'],
      [403, 'bad_jwt'],
      [403, 'not_admin'],
    ]);
  });

  it('answers bad input with a clear 4xx, never a 500', async () => {
    const cases = [
      await call('POST', '/token?grant_type=password', '{not json'),
      await call('POST', '/token?grant_type=password', { email: 42, password: ['x'] }),
      await call('POST', '/token?grant_type=magic', {}),
      await call('POST', '/token?grant_type=refresh_token', { refresh_token: { $ne: 1 } }),
      await call('POST', '/token?grant_type=refresh_token', { refresh_token: 'not-a-token' }),
      await call('POST', '/signup', { email: 'not-an-email', password: PASSWORD }),
      await call('POST', '/signup', { email: makeEmail(), password: PASSWORD, data: 'x' }),
      await call('POST', '/signup', [1, 2]),
      await call('POST', '/recover', { email: "x' or 1=1 --" }),
      await call('POST', '/logout?scope=everything', undefined, { authorization: 'Bearer x' }),
      await call('GET', '/user'),
      await call('GET', '/user', undefined, { authorization: 'Bearer not.a.jwt' }),
      await call('POST', '/verify', { type: 'signup', token_hash: 'nope' }),
      await call('GET', '/nothing-here'),
    ];
    for (const c of cases) {
      expect(c.status, c.text).toBeGreaterThanOrEqual(400);
      expect(c.status, c.text).toBeLessThan(500);
      expect(typeof c.json['error_code'], c.text).toBe('string');
      expect(typeof c.json['msg'], c.text).toBe('string');
    }
    const badLink = await followLink(`${t.url}/auth/v1/verify?token=nope&type=signup`);
    expect(badLink.status).toBe(303);
    expect(badLink.fragment.get('error_code')).toBe('otp_expired');
  });

  it('deletes a user through the admin API with the service key only, ending its sessions', async () => {
    const email = makeEmail();
    await signUpConfirmed(t, email, PASSWORD);
    const member = createAuthClient(t);
    const { data } = await member.auth.signInWithPassword({ email, password: PASSWORD });
    const id = data.user!.id;

    const asAnon = await createAuthClient(t).auth.admin.deleteUser(id);
    expect(asAnon.error?.status).toBe(403);
    const asMember = await fetch(`${t.url}/auth/v1/admin/users/${id}`, {
      method: 'DELETE',
      headers: { apikey: t.anonKey, authorization: `Bearer ${data.session!.access_token}` },
    });
    expect(asMember.status).toBe(403);
    expect((await member.auth.getUser()).error).toBeNull();

    const service = createAuthClient(t, t.serviceRoleKey);
    const ended: unknown[] = [];
    const onEnded = (e: unknown) => ended.push(e);
    t.server.ctx.events.on('sessions-ended', onEnded);
    const deleted = await service.auth.admin.deleteUser(id);
    t.server.ctx.events.off('sessions-ended', onEnded);
    expect(deleted.error).toBeNull();
    expect(ended).toEqual([{ userId: id, sessionIds: 'all' }]);
    expect(deleted.data.user?.id).toBe(id);
    expect((await t.db.query('select 1 from auth.users where id = $1', [id])).rowCount).toBe(0);
    await expect(t.server.ctx.verifyToken(data.session!.access_token)).rejects.toThrow();
    expect(
      (await createAuthClient(t).auth.signInWithPassword({ email, password: PASSWORD })).error?.code,
    ).toBe('invalid_credentials');
    expect((await service.auth.admin.deleteUser(id)).error?.status).toBe(404);
    const badId = await fetch(`${t.url}/auth/v1/admin/users/not-a-uuid`, {
      method: 'DELETE',
      headers: { apikey: t.serviceRoleKey, authorization: `Bearer ${t.serviceRoleKey}` },
    });
    expect(badId.status).toBe(400);
  });

  it('creates confirmed users through the admin API for functions and seeds', async () => {
    const service = createAuthClient(t, t.serviceRoleKey);
    const email = makeEmail('admin-made');
    const { data, error } = await service.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { name: 'Made' },
    });
    expect(error).toBeNull();
    expect(data.user?.email_confirmed_at).toBeTruthy();
    expect(
      (await createAuthClient(t).auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toBeNull();
    expect((await service.auth.admin.createUser({ email, password: PASSWORD })).error?.code).toBe(
      'email_exists',
    );
    expect(
      (await createAuthClient(t).auth.admin.createUser({ email: makeEmail(), password: PASSWORD })).error
        ?.status,
    ).toBe(403);
  });

  it('records sign-in successes and failures as security events', async () => {
    const email = makeEmail();
    await signUpConfirmed(t, email, PASSWORD);
    const client = createAuthClient(t);
    await client.auth.signInWithPassword({ email, password: 'Wrong-Password-9' });
    const { data } = await client.auth.signInWithPassword({ email, password: PASSWORD });
    const events = await t.db.query<{ event: string; details: Record<string, unknown> }>(
      `select event, details from public.security_events where user_id = $1 order by created_at`,
      [data.user!.id],
    );
    expect(events.rows.map((e) => e.event)).toEqual(['sign_in_failed', 'sign_in_succeeded']);
    expect(JSON.stringify(events.rows)).not.toContain(PASSWORD);
  });

  it('serves the PWA its configuration and the outbox pages', async () => {
    const config = await (await fetch(`${t.url}/app-config.json`)).json();
    expect(config).toMatchObject({ anonKey: t.anonKey });
    // No backend address: the app talks to whatever origin it was opened at (PUBLIC_URL is for e-mails).
    expect(config).not.toHaveProperty('supabaseUrl');
    expect(config).not.toHaveProperty('powersyncUrl');
    expect(typeof config.operatorName).toBe('string');
    // Only public values: never the service key.
    expect(JSON.stringify(config)).not.toContain(t.serviceRoleKey);
    const page = await fetch(`${t.url}/_outbox`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Confirm your HeartSync account');
  });
});

describe('outbox switched off', () => {
  it('hides /_outbox when OUTBOX is off', async () => {
    const t = await startTestServer('pglite', { OUTBOX: '0' });
    try {
      expect((await fetch(`${t.url}/_outbox/messages.json`)).status).toBe(404);
      expect((await fetch(`${t.url}/_outbox`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
