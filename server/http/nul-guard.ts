// A NUL character (U+0000) cannot be stored in PostgreSQL text: left to the database it is a 500. Every
// request that carries one in its query string or JSON body is refused here with a clear 400 in the shape
// of the service it was sent to, before any part reads it (issue 13).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const MESSAGE = 'Text may not contain a NUL character (U+0000).';

/** Whether a parsed JSON value holds U+0000 in any string or key. */
export function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => holdsNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || holdsNul(v, depth + 1));
}

/**
 * A text or JSON body passed on as bytes (to edge functions): a NUL byte, or JSON spelling one as \\u0000.
 * Binary bodies (photo uploads) are bytes, NULs included, and are not looked at.
 */
function rawHoldsNul(body: Buffer, contentType: string | undefined): boolean {
  if (!/json|^text\//i.test(contentType ?? '')) return false;
  return body.includes(0) || /\\u0000/i.test(body.toString('utf8'));
}

function queryHoldsNul(url: string): boolean {
  const q = url.indexOf('?');
  return q >= 0 && /%00/i.test(url.slice(q));
}

function refuse(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = req.url;
  if (path.startsWith('/auth/v1'))
    return reply.code(400).send({ code: 400, error_code: 'validation_failed', msg: MESSAGE });
  if (path.startsWith('/rest/v1'))
    return reply.code(400).send({ code: '22P05', details: null, hint: null, message: MESSAGE });
  if (path.startsWith('/storage/v1'))
    return reply.code(400).send({ statusCode: '400', error: 'InvalidRequest', message: MESSAGE });
  if (path.startsWith('/sync') || path.startsWith('/write-checkpoint'))
    return reply.code(400).send({ error: { message: MESSAGE } });
  return reply.code(400).send({ error: MESSAGE });
}

export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    if (queryHoldsNul(req.url)) return refuse(req, reply);
  });
  app.addHook('preHandler', async (req, reply) => {
    const raw = Buffer.isBuffer(req.body);
    // Only edge functions take their body as bytes; storage's are files, NUL bytes and all.
    if (
      raw
        ? req.url.startsWith('/functions/') && rawHoldsNul(req.body as Buffer, req.headers['content-type'])
        : holdsNul(req.body)
    )
      return refuse(req, reply);
  });
}
