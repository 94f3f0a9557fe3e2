// Security headers on every response: strict CSP (no unsafe-inline, no unsafe-eval), HSTS, framing, sniffing, referrer.
import type { FastifyInstance } from 'fastify';

/**
 * The CSP. The app's own backend is always its origin ('self', which covers ws/wss to the same host):
 * whatever address the app is opened at, it talks to that address. `backendOrigins` are the hosted
 * Supabase and PowerSync origins of a hosted build, and Stream's when calls go through Stream (and their
 * WebSocket forms); nothing else may be reached.
 */
export function buildContentSecurityPolicy(backendOrigins: readonly string[] = []): string {
  const connect = ["'self'"];
  for (const o of backendOrigins) {
    // A wildcard source (Stream's edge hosts, `https://*.stream-io-video.com`) is taken as written.
    const origin = o.includes('*') ? o.replace(/\/+$/, '') : new URL(o).origin;
    connect.push(origin, origin.replace(/^http/, 'ws'));
  }
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src ${[...new Set(connect)].join(' ')}`,
    "media-src 'self' blob:",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const CONTENT_SECURITY_POLICY = buildContentSecurityPolicy();

/** Every response's security headers; a hosted build passes its backend origins for connect-src. */
export function getSecurityHeaders(backendOrigins: readonly string[] = []): Record<string, string> {
  return {
    'content-security-policy': buildContentSecurityPolicy(backendOrigins),
    'strict-transport-security': 'max-age=63072000; includeSubDomains',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'permissions-policy': 'camera=(self), microphone=(self), geolocation=(), payment=()',
    'cross-origin-opener-policy': 'same-origin',
  };
}

export const SECURITY_HEADERS: Record<string, string> = getSecurityHeaders();

export function registerSecurityHeaders(app: FastifyInstance, backendOrigins: readonly string[] = []): void {
  const headers = getSecurityHeaders(backendOrigins);
  app.addHook('onSend', async (_req, reply, payload) => {
    for (const [k, v] of Object.entries(headers)) if (!reply.hasHeader(k)) reply.header(k, v);
    return payload;
  });
}
