// Serving the built PWA: the pre-rendered landing for / only, the shell for client routes, and the
// build's pre-compressed copies when the browser accepts them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerAppServing } from './serve-app.ts';

const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;

let app: FastifyInstance | undefined;
let dir: string | undefined;

afterEach(async () => {
  await app?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  app = undefined;
  dir = undefined;
});

async function serve(files: Record<string, string | Buffer>): Promise<FastifyInstance> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-serve-app-'));
  for (const [name, body] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), body);
  }
  app = Fastify({ logger: false });
  await registerAppServing(app, dir);
  return app;
}

describe('registerAppServing', () => {
  it('answers / with the pre-rendered landing and every other page route with the shell', async () => {
    const server = await serve({ 'index.html': 'shell', 'landing.html': 'landing' });
    for (const url of ['/', '/?ref=ad']) {
      const res = await server.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe('landing');
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    for (const url of ['/dashboard', '/login', '/auth/callback']) {
      const res = await server.inject({ url });
      expect(res.body, url).toBe('shell');
    }
  });

  it('answers malformed or escaping paths with a 4xx, never a 500 or a file outside the build', async () => {
    const server = await serve({ 'index.html': 'shell' });
    const bad = await server.inject({ url: '/%E0%A4%A' });
    expect(bad.statusCode).toBe(400);
    for (const url of ['/..%2F..%2Fetc%2Fpasswd', '/assets/..%2F..%2Fpackage.json']) {
      const res = await server.inject({ url });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.body, url).not.toContain('root:');
      expect(res.body, url).not.toContain('"name"');
    }
  });

  it('answers / with the shell when the build made no pre-rendered landing', async () => {
    const server = await serve({ 'index.html': 'shell' });
    expect((await server.inject({ url: '/' })).body).toBe('shell');
  });

  it('sends the brotli or gzip copy a browser accepts, and the file itself otherwise', async () => {
    const server = await serve({
      'index.html': 'shell',
      'assets/app-1.js': SCRIPT,
      'assets/app-1.js.br': zlib.brotliCompressSync(SCRIPT),
      'assets/app-1.js.gz': zlib.gzipSync(SCRIPT),
    });
    const br = await server.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gz = await server.inject({ url: '/assets/app-1.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await server.inject({
      url: '/assets/app-1.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });
});
