// Mail over SMTP to a real SMTP peer (smtp-server): delivery, and retries when the peer refuses or is down.
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { getFreePort, startTestServer, type TestServer } from '../support/test-server.ts';
import { createAuthClient, findVerifyLink, followLink, getMailsTo, makeEmail } from './auth-support.ts';

const PASSWORD = 'Correct-Horse-42';

interface Received {
  to: string[];
  raw: string;
}

async function startSmtpPeer(refuseFirst = 0) {
  const received: Received[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (refusals < refuseFirst) {
        refusals += 1;
        const err = Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 });
        return callback(err);
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  const port = await getFreePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    received,
    get refusals() {
      return refusals;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function waitFor<T>(fn: () => Promise<T | undefined> | T | undefined, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The text part of a simple nodemailer message, with quoted-printable soft breaks undone. */
function getPlainText(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
}

describe.each(getDatabaseKinds())('mail over SMTP on %s', (kind) => {
  let peer: Awaited<ReturnType<typeof startSmtpPeer>>;
  let t: TestServer;
  afterEach(async () => {
    await t?.close();
    await peer?.close();
  });

  it('delivers the confirmation mail to the SMTP peer, and its link confirms the account', async () => {
    peer = await startSmtpPeer();
    t = await startTestServer(kind, { SMTP_URL: `smtp://127.0.0.1:${peer.port}`, MAIL_RETRY_SECONDS: '1' });
    const email = makeEmail('smtp');
    const { error } = await createAuthClient(t).auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    const mail = await waitFor(() => peer.received.find((m) => m.to.includes(email)));
    expect(mail.raw).toMatch(/Subject: Confirm your HeartSync account/);
    const link = findVerifyLink(getPlainText(mail.raw), 'signup');
    expect(link).toBeDefined();
    const followed = await followLink(link!);
    expect(followed.fragment.get('access_token')).toBeTruthy();
    const [stored] = await getMailsTo(t, email);
    expect(stored?.status).toBe('sent');
    // A delivered mail's live link is not kept at rest.
    expect(stored?.text).toBe('');
  });

  it('answers sign-up as usual while the SMTP peer refuses, and delivers on a later attempt', async () => {
    peer = await startSmtpPeer(2);
    t = await startTestServer(kind, { SMTP_URL: `smtp://127.0.0.1:${peer.port}`, MAIL_RETRY_SECONDS: '1' });
    const email = makeEmail('retry');
    const { data, error } = await createAuthClient(t).auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.user?.identities).toHaveLength(1);
    const mail = await waitFor(() => peer.received.find((m) => m.to.includes(email)));
    expect(peer.refusals).toBe(2);
    expect(mail.raw).toMatch(/auth\/v1\/verify/);
    const [stored] = await waitFor(async () => {
      const rows = await getMailsTo(t, email);
      return rows[0]?.status === 'sent' ? rows : undefined;
    });
    expect(stored?.attempts).toBe(3);
  });

  it('keeps the mail queued when no SMTP server answers, without failing the sign-up', async () => {
    const deadPort = await getFreePort();
    t = await startTestServer(kind, { SMTP_URL: `smtp://127.0.0.1:${deadPort}`, MAIL_RETRY_SECONDS: '60' });
    const email = makeEmail('down');
    const started = Date.now();
    const { error } = await createAuthClient(t).auth.signUp({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(Date.now() - started).toBeLessThan(5000);
    const rows = await waitFor(async () => {
      const r = await t.db.query<{ status: string; attempts: number; last_error: string | null }>(
        `select status, attempts, last_error from mail.messages where to_address = $1`,
        [email],
      );
      return r.rows[0] && r.rows[0].attempts > 0 ? r.rows : undefined;
    });
    expect(rows[0]).toMatchObject({ status: 'pending', attempts: 1 });
    expect(rows[0]?.last_error).toBeTruthy();
  });
});

describe('mail without SMTP', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('pglite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores the mail in the outbox with plain text and HTML, linking only to PUBLIC_URL', async () => {
    const email = makeEmail('outbox');
    await createAuthClient(t).auth.resetPasswordForEmail(email);
    expect(await getMailsTo(t, email)).toHaveLength(0);
    await createAuthClient(t).auth.signUp({ email, password: PASSWORD });
    const [mail] = await getMailsTo(t, email);
    expect(mail?.status).toBe('stored');
    expect(mail?.html).toContain('<a href="');
    const links = [...`${mail?.text} ${mail?.html}`.matchAll(/https?:\/\/[^\s"<]+/g)].map((m) => m[0]);
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) expect(l.startsWith(`${t.url}/auth/v1/verify?`)).toBe(true);
  });
});
