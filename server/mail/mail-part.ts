// The mail part: the /_outbox pages over the server's mailer (ctx.mailer, built and closed by buildApp)
// (for clients on this machine, or with the operator's token).
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';

interface OutboxRow {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: string;
  attempts: number;
  created_at: Date;
  sent_at: Date | null;
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const LOOPBACK_NAMES = new Set(['localhost', '[::1]', '::1']);

/** A host name of this machine's loopback interface (localhost, 127.0.0.0/8, ::1). */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return LOOPBACK_NAMES.has(h) || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function isLoopbackAddress(ip: string): boolean {
  return ip === '::1' || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(ip);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/**
 * Who may read the outbox: the operator's token when set, else a client on this machine that names this
 * machine as the host (a page of another site rebound to 127.0.0.1 sends its own name: refused).
 */
function mayReadOutbox(req: FastifyRequest, token: string | undefined): boolean {
  const sent = req.headers['x-outbox-token'] ?? (req.query as Record<string, unknown> | undefined)?.['token'];
  if (token && typeof sent === 'string' && sameSecret(sent, token)) return true;
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  return isLoopbackAddress(req.ip) && isLoopbackHost(host);
}

export async function registerMail(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // The outbox shows every mail with its live links (a password reset is an account): only for development
  // and demo instances on this machine (decision 0053).
  if (!ctx.config.outbox) return;
  if (!isLoopbackHost(new URL(ctx.config.publicUrl).hostname)) {
    ctx.log.warn('OUTBOX is on but PUBLIC_URL is not a loopback origin: /_outbox stays closed');
    return;
  }
  const token = ctx.config.OUTBOX_TOKEN;
  app.addHook('onRequest', async (req, reply) => {
    if (req.url !== '/_outbox' && !req.url.startsWith('/_outbox/') && !req.url.startsWith('/_outbox?'))
      return;
    if (!mayReadOutbox(req, token)) await reply.code(404).send({ message: 'Not Found' });
  });

  async function listMessages(): Promise<OutboxRow[]> {
    const r = await ctx.db.query<OutboxRow>(
      `select id, to_address, subject, text_body, html_body, status, attempts, created_at, sent_at
       from mail.messages order by created_at desc, id limit 200`,
    );
    return r.rows;
  }

  app.get('/_outbox/messages.json', async (_req, reply) => {
    const rows = await listMessages();
    reply.header('cache-control', 'no-store');
    return rows.map((m) => ({
      id: m.id,
      to: m.to_address,
      subject: m.subject,
      text: m.text_body,
      html: m.html_body,
      status: m.status,
      attempts: m.attempts,
      created_at: new Date(m.created_at).toISOString(),
      sent_at: m.sent_at ? new Date(m.sent_at).toISOString() : null,
    }));
  });

  app.get('/_outbox', async (_req, reply) => {
    const rows = await listMessages();
    const origin = ctx.config.publicUrl;
    const items = rows.map((m) => {
      const links = [...m.text_body.matchAll(/https?:\/\/\S+/g)]
        .map((x) => x[0])
        .filter((l) => l.startsWith(`${origin}/`));
      return [
        '<article>',
        `<h2>${escapeHtml(m.subject)}</h2>`,
        `<p>To: ${escapeHtml(m.to_address)} · ${escapeHtml(new Date(m.created_at).toISOString())} · ${escapeHtml(m.status)}</p>`,
        ...links.map((l) => `<p><a href="${escapeHtml(l)}">Open the link in this mail</a></p>`),
        `<pre>${escapeHtml(m.text_body)}</pre>`,
        '</article><hr>',
      ].join('\n');
    });
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return [
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>HeartSync outbox</title></head><body>',
      '<h1>Outbox</h1>',
      '<p>Mails this development instance would have sent. Set SMTP_URL to send real mail.</p>',
      rows.length === 0 ? '<p>No mail yet.</p>' : items.join('\n'),
      '</body></html>',
    ].join('\n');
  });
}
