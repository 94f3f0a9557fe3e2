// Sends mail: every message is stored in mail.messages first (the outbox, and the retry queue), then
// delivered over SMTP by nodemailer when SMTP_URL is set. A failed delivery is retried by a loop and
// never reaches the caller, so a sign-up answers the same whether or not the mail server is up.
import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The link the mail carries, printed on the console in outbox mode so a developer can click it. */
  link?: string;
}

export interface Mailer {
  /** Stores the message and schedules its delivery; resolves once it is stored. */
  send(message: MailMessage): Promise<void>;
  /** Delivers due pending messages now (the retry loop calls this); resolves when the pass ends. */
  deliverDue(): Promise<void>;
  close(): Promise<void>;
}

/** Give up on a message after this many failed deliveries. */
const MAX_ATTEMPTS = 8;

export function createMailer(ctx: { config: Config; db: Database; log: FastifyBaseLogger }): Mailer {
  const { config, db, log } = ctx;
  const transport = config.SMTP_URL ? nodemailer.createTransport(config.SMTP_URL) : undefined;
  const retryMs = config.MAIL_RETRY_SECONDS * 1000;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  async function deliverOne(row: {
    id: string;
    to_address: string;
    subject: string;
    text_body: string;
    html_body: string;
    attempts: number;
  }) {
    if (!transport) return;
    try {
      await transport.sendMail({
        from: config.MAIL_FROM,
        to: row.to_address,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
      });
      // The body carries a live link; once delivered there is no reason to keep it at rest.
      await db.query(
        `update mail.messages set status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = null,
           text_body = '', html_body = '' where id = $1`,
        [row.id],
      );
    } catch (e) {
      const attempts = row.attempts + 1;
      const gaveUp = attempts >= MAX_ATTEMPTS;
      const delaySeconds = Math.min(3600, config.MAIL_RETRY_SECONDS * 2 ** (attempts - 1));
      log.warn({ err: (e as Error).message, attempts }, 'mail delivery failed; will retry');
      await db.query(
        `update mail.messages set attempts = $2, last_error = $3, status = $4,
           next_attempt_at = now() + make_interval(secs => $5) where id = $1`,
        [row.id, attempts, (e as Error).message.slice(0, 500), gaveUp ? 'failed' : 'pending', delaySeconds],
      );
    }
  }

  async function runPass() {
    if (!transport || closed) return;
    // Claim due rows by pushing their next attempt out first, so a second process never sends them twice.
    const due = await db.query<{
      id: string;
      to_address: string;
      subject: string;
      text_body: string;
      html_body: string;
      attempts: number;
    }>(
      `update mail.messages set next_attempt_at = now() + interval '10 minutes'
       where id in (select id from mail.messages where status = 'pending' and next_attempt_at <= now()
                    order by next_attempt_at limit 20 for update skip locked)
       returning id, to_address, subject, text_body, html_body, attempts`,
    );
    for (const row of due.rows) await deliverOne(row);
  }

  function deliverDue(): Promise<void> {
    if (running) {
      // A message stored during a pass is picked up by one more pass right after it.
      again = true;
      return running;
    }
    running = runPass()
      .catch((e: Error) => log.error({ err: e.message }, 'mail delivery pass failed'))
      .finally(() => {
        running = undefined;
        if (again && !closed) {
          again = false;
          void deliverDue();
        }
      });
    return running;
  }

  const timer = transport ? setInterval(() => void deliverDue(), retryMs) : undefined;
  timer?.unref();

  return {
    async send(message) {
      await db.query(
        `insert into mail.messages (id, to_address, subject, text_body, html_body, status, next_attempt_at)
         values ($1, $2, $3, $4, $5, $6, now())`,
        [
          crypto.randomUUID(),
          message.to,
          message.subject,
          message.text,
          message.html,
          transport ? 'pending' : 'stored',
        ],
      );
      if (transport) void deliverDue();
      else
        log.info(
          { to: message.to, subject: message.subject, link: message.link },
          'mail stored in the outbox',
        );
    },
    deliverDue,
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await running;
      transport?.close();
    },
  };
}
