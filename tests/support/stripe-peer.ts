// A local peer that speaks the part of Stripe's API the functions call (Checkout Sessions, billing portal
// sessions), for the real `stripe` package to talk to in tests: form-encoded requests, Stripe-shaped JSON
// answers, Bearer secret keys checked, every request recorded for the test to inspect.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StripeRequest {
  method: string;
  path: string;
  /** The form body as flat keys, as Stripe encodes them (`metadata[user_id]`, `line_items[0][quantity]`). */
  form: Record<string, string>;
  authorization: string | undefined;
}

export interface StripePeer {
  url: string;
  requests: StripeRequest[];
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${crypto.randomBytes(12).toString('hex')}`;

export async function startStripePeer(secretKey: string): Promise<StripePeer> {
  const requests: StripeRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const path = (req.url ?? '').split('?')[0] ?? '';
      requests.push({ method: req.method ?? '', path, form, authorization: req.headers.authorization });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`)
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const sessionId = id('cs');
        return send(200, {
          id: sessionId,
          object: 'checkout.session',
          mode: form['mode'],
          client_reference_id: form['client_reference_id'] ?? null,
          customer: form['customer'] ?? null,
          metadata: {
            user_id: form['metadata[user_id]'],
            plan_id: form['metadata[plan_id]'],
            billing_cycle: form['metadata[billing_cycle]'],
          },
          status: 'open',
          url: `https://checkout.stripe.test/c/pay/${sessionId}`,
        });
      }
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        const sessionId = id('bps');
        return send(200, {
          id: sessionId,
          object: 'billing_portal.session',
          customer: form['customer'],
          return_url: form['return_url'],
          url: `https://billing.stripe.test/p/session/${sessionId}`,
        });
      }
      send(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${path})` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
