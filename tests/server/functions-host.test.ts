// The /functions/v1 host itself, with test-only functions: routing, JWT gate, conversion, env scope, failures.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, FunctionsHttpError } from '@supabase/supabase-js';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadOrCreateKeys, type Keys } from '../../server/auth/keys.ts';
import { parseConfig } from '../../server/config.ts';
import { ServerEventBus } from '../../server/context.ts';
import { createLocalBus } from '../../server/cluster/cluster-bus.ts';
import { createFunctionsPart } from '../../server/functions/functions-part.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/functions');

describe.each(getDatabaseKinds())('functions host on %s', (kind) => {
  let app: FastifyInstance;
  let db: TestDatabase;
  let keys: Keys;
  let url: string;
  let dataDir: string;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-functions-test-'));
    const config = parseConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO: '0' });
    keys = await loadOrCreateKeys(dataDir, 'http://127.0.0.1/auth/v1');
    ({ app } = await buildApp(
      {
        config,
        db,
        keys,
        events: new ServerEventBus(),
        bus: createLocalBus(),
      },
      [
        createFunctionsPart({
          dir: fixtures,
          configToml: path.join(fixtures, 'config.toml'),
          timeoutMs: 500,
        }),
      ],
      { logger: false, distDir: path.join(dataDir, 'no-dist') },
    ));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await app?.close();
    await db?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const client = () =>
    createClient(url, keys.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: WebSocket as never },
    });

  it('passes method, headers and body to the handler and its status and headers back', async () => {
    const { data, error, response } = await client().functions.invoke('echo', {
      body: { hello: 'world' },
      headers: { 'x-custom': 'value' },
    });
    expect(error).toBeNull();
    expect(response?.status).toBe(201);
    expect(response?.headers.get('x-from-function')).toBe('yes');
    expect(data).toMatchObject({
      method: 'POST',
      contentType: 'application/json',
      custom: 'value',
      body: JSON.stringify({ hello: 'world' }),
    });
  });

  it('gives handlers the Supabase settings without putting them in process.env', async () => {
    const { data } = await client().functions.invoke('echo', { body: 'x' });
    expect(data).toMatchObject({ hasServiceKey: true, processHasServiceKey: false });
    expect(data.supabaseUrl).toBe(url);
    expect(process.env['SUPABASE_SERVICE_ROLE_KEY']).toBeUndefined();
  });

  it('answers 401 without a valid JWT, like the Supabase gateway', async () => {
    expect((await fetch(`${url}/functions/v1/echo`, { method: 'POST' })).status).toBe(401);
    const forged = await fetch(`${url}/functions/v1/echo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.anonKey.slice(0, -4)}AAAA` },
    });
    expect(forged.status).toBe(401);
  });

  it('lets a function configured with verify_jwt = false be called without a JWT', async () => {
    const res = await fetch(`${url}/functions/v1/open-hook`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('open');
  });

  it.each(['nothing-here', '_shared', 'Echo', '..', 'a'.repeat(80)])(
    'answers 404 for the function name %s',
    async (name) => {
      const res = await fetch(`${url}/functions/v1/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys.anonKey}` },
      });
      expect(res.status).toBe(404);
    },
  );

  it('answers 500 with a generic message when a handler throws, never its error text', async () => {
    const { error } = await client().functions.invoke('throws', { body: {} });
    expect(error).toBeInstanceOf(FunctionsHttpError);
    const res = (error as FunctionsHttpError).context as Response;
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('hunter2');
    expect(JSON.parse(text)).toMatchObject({ message: 'The function failed' });
  });

  it('answers 504 when a handler takes longer than its time limit', async () => {
    const res = await fetch(`${url}/functions/v1/slow`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.anonKey}` },
    });
    expect(res.status).toBe(504);
  });

  it('answers 500 when a module has no handler export', async () => {
    const res = await fetch(`${url}/functions/v1/no-handler`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.anonKey}` },
    });
    expect(res.status).toBe(500);
  });

  it('answers 413 to a body over 1 MB', async () => {
    const res = await fetch(`${url}/functions/v1/echo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.anonKey}`, 'content-type': 'application/json' },
      body: 'x'.repeat(2 * 1024 * 1024),
    }).catch((e: unknown) => e as Error);
    if (res instanceof Response) expect(res.status).toBe(413);
  });
});
