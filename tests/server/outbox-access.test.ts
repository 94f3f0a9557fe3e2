// /_outbox shows live sign-up and reset links (a reset link is an account): it answers only clients on this
// machine that name this machine as the host, or the operator's token, and never when PUBLIC_URL is not a
// loopback origin (issue 13, decision 0053). Refusals are plain 404s.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const TOKEN = 'outbox-token-0123456789abcdef';

describe('who may read /_outbox', () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  // node:http, not fetch: fetch does not let a caller set Host, and the DNS-rebinding case needs it.
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<number>((resolve, reject) => {
      const req = http.get(`${t!.url}${path}`, { headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
    });

  it('answers a loopback client that names this machine, refuses a page of another host name', async () => {
    t = await startTestServer('pglite');
    expect(await get('/_outbox/messages.json')).toBe(200);
    expect(await get('/_outbox')).toBe(200);
    // DNS rebinding: evil.example resolved to 127.0.0.1, the browser still sends its own name.
    expect(await get('/_outbox/messages.json', { host: 'evil.example:3000' })).toBe(404);
    expect(await get('/_outbox', { host: 'evil.example' })).toBe(404);
  });

  it('refuses a client elsewhere, unless it brings the operator token', async () => {
    // A proxy on this machine forwards a client from elsewhere (the proxy is trusted to say so).
    t = await startTestServer('pglite', { TRUSTED_PROXIES: '127.0.0.1', OUTBOX_TOKEN: TOKEN });
    const remote = { 'x-forwarded-for': '203.0.113.7' };
    expect(await get('/_outbox/messages.json', remote)).toBe(404);
    expect(
      await get('/_outbox/messages.json', { ...remote, 'x-outbox-token': 'wrong-token-0123456789' }),
    ).toBe(404);
    expect(await get('/_outbox/messages.json', { ...remote, 'x-outbox-token': TOKEN })).toBe(200);
    expect(await get(`/_outbox?token=${TOKEN}`, remote)).toBe(200);
  });

  it('stays closed when PUBLIC_URL is not a loopback origin, token or not', async () => {
    t = await startTestServer('pglite', { PUBLIC_URL: 'https://heartsync.example.org', OUTBOX_TOKEN: TOKEN });
    expect(await get('/_outbox/messages.json')).toBe(404);
    expect(await get('/_outbox/messages.json', { 'x-outbox-token': TOKEN })).toBe(404);
  });
});
