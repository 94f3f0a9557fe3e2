// Faults of the server process itself: kill -9 mid-write, the PGlite data folder lock, SIGTERM, and
// PostgreSQL going down and coming back behind a TCP relay. The real `server/main.ts` runs as a child.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeys } from '../../server/auth/keys.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { getFreePort } from '../support/test-server.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

const root = path.resolve(import.meta.dirname, '../..');

interface Child {
  proc: ChildProcess;
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  exited: Promise<number | null>;
}

function spawnServer(dataDir: string, port: number, env: Record<string, string> = {}): Child {
  const url = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env['PATH'] ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DEMO: '0',
      OUTBOX: '1',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      AUTH_RATE_LIMIT_MAX: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, url, output: () => out, exited };
}

/** Waits until /health answers 200; throws with the process output when it exits or times out. */
async function waitHealthy(child: Child, timeoutMs = 110_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null) throw new Error(`server exited early:\n${child.output()}`);
    try {
      const res = await fetch(`${child.url}/health`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await sleep(200);
  }
  throw new Error(`server not healthy within ${timeoutMs} ms:\n${child.output()}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Any service_role token signed with the instance key passes the auth admin API. */
async function getServiceRoleKey(dataDir: string, url: string): Promise<string> {
  const jwk = JSON.parse(fs.readFileSync(path.join(dataDir, 'jwt-key.json'), 'utf8')) as object;
  return (await createKeys(jwk, `${url}/auth/v1`)).serviceRoleKey;
}

interface Member {
  anonKey: string;
  accessToken: string;
}

/** A confirmed member made with the admin API, signed in with a password like the PWA does. */
async function createMember(child: Child, dataDir: string): Promise<Member> {
  const serviceKey = await getServiceRoleKey(dataDir, child.url);
  // The printed anon key, as a deployer copies it into the PWA; it must survive restarts.
  const anonKey = /anon key: (\S+)/.exec(child.output())?.[1];
  if (!anonKey) throw new Error(`no anon key printed:\n${child.output()}`);
  const email = `fault-${Date.now().toString(36)}@example.test`;
  const password = 'correct horse battery staple 42';
  const created = await fetch(`${child.url}/auth/v1/admin/users`, {
    method: 'POST',
    headers: {
      apikey: serviceKey,
      authorization: `Bearer ${serviceKey}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ email, password, email_confirm: true }),
  });
  expect(created.status, await created.clone().text()).toBe(200);
  const signIn = await fetch(`${child.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(signIn.status).toBe(200);
  const { access_token } = (await signIn.json()) as { access_token: string };
  return { anonKey, accessToken: access_token };
}

const memberHeaders = (m: Member) => ({
  apikey: m.anonKey,
  authorization: `Bearer ${m.accessToken}`,
  'content-type': 'application/json',
});

function writeMessage(child: Child, m: Member, content: string): Promise<Response> {
  return fetch(`${child.url}/rest/v1/lovy_messages`, {
    method: 'POST',
    headers: { ...memberHeaders(m), prefer: 'return=minimal' },
    body: JSON.stringify({ role: 'user', content }),
    signal: AbortSignal.timeout(10_000),
  });
}

async function readMessages(child: Child, m: Member): Promise<string[]> {
  const res = await fetch(`${child.url}/rest/v1/lovy_messages?select=content`, { headers: memberHeaders(m) });
  expect(res.status).toBe(200);
  return ((await res.json()) as Array<{ content: string }>).map((r) => r.content);
}

/**
 * Writes through REST from `workers` concurrent loops and SIGKILLs the server once `killAfter`
 * writes were acknowledged, with requests still in flight. Returns the acknowledged contents.
 */
async function writeUntilKilled(
  child: Child,
  m: Member,
  killAfter: number,
  workers = 6,
): Promise<Set<string>> {
  const acknowledged = new Set<string>();
  let next = 0;
  let killed = false;
  const worker = async () => {
    while (!killed) {
      const content = `w-${next++}`;
      try {
        const res = await writeMessage(child, m, content);
        if (res.status === 201) acknowledged.add(content);
        else if (!killed) throw new Error(`write answered ${res.status}: ${await res.text()}`);
      } catch (e) {
        if (!killed) throw e;
      }
      if (!killed && acknowledged.size >= killAfter) {
        killed = true;
        child.proc.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  await child.exited;
  expect(next).toBeGreaterThan(acknowledged.size); // some requests were in flight at the kill
  return acknowledged;
}

function expectAllOnce(stored: string[], acknowledged: Set<string>) {
  const counts = new Map<string, number>();
  for (const c of stored) counts.set(c, (counts.get(c) ?? 0) + 1);
  const duplicated = [...counts].filter(([, n]) => n > 1);
  expect(duplicated).toEqual([]);
  const missing = [...acknowledged].filter((c) => !counts.has(c));
  expect(missing).toEqual([]);
}

function makeDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'hs-faults-'));
}

describe('server process on PGlite', () => {
  const dataDir = makeDataDir();
  let first: Child;
  let member: Member;

  beforeAll(async () => {
    first = spawnServer(dataDir, await getFreePort());
    await waitHealthy(first);
    member = await createMember(first, dataDir);
  }, 150_000);
  afterAll(() => {
    if (first?.proc.exitCode === null) first.proc.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second server on the same data folder with a message naming it', async () => {
    const second = spawnServer(dataDir, await getFreePort());
    const code = await second.exited;
    expect(code).not.toBe(0);
    expect(second.output()).toContain(dataDir);
    expect(second.output()).toMatch(/in use by another HeartSync process/);
    // The first server was not disturbed.
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
  });

  it('keeps every acknowledged write, once, across kill -9 and a restart on the same folder', async () => {
    const acknowledged = await writeUntilKilled(first, member, 120);
    expect(fs.existsSync(path.join(dataDir, 'heartsync.lock'))).toBe(true); // left behind by the kill

    const restarted = spawnServer(dataDir, Number(new URL(first.url).port));
    try {
      await waitHealthy(restarted);
      expectAllOnce(await readMessages(restarted, member), acknowledged);
      // Writes work after the restart too.
      expect((await writeMessage(restarted, member, 'after-restart')).status).toBe(201);

      // Graceful shutdown: SIGTERM exits 0 within a few seconds and releases the folder.
      const started = Date.now();
      restarted.proc.kill('SIGTERM');
      expect(await restarted.exited).toBe(0);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(fs.existsSync(path.join(dataDir, 'heartsync.lock'))).toBe(false);
    } finally {
      if (restarted.proc.exitCode === null) restarted.proc.kill('SIGKILL');
    }
  }, 180_000);
});

describe.runIf(getDatabaseKinds().includes('postgres'))('server process on PostgreSQL', () => {
  let testDb: TestDatabase;
  let proxy: TcpProxy;
  const dataDir = makeDataDir();
  let child: Child;
  let member: Member;

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    const target = new URL(testDb.url!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const viaProxy = new URL(testDb.url!);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    child = spawnServer(dataDir, await getFreePort(), { DATABASE_URL: viaProxy.toString() });
    await waitHealthy(child);
    member = await createMember(child, dataDir);
  }, 150_000);
  afterAll(async () => {
    if (child?.proc.exitCode === null) {
      child.proc.kill('SIGKILL');
      await child.exited;
    }
    await proxy?.close();
    await testDb?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 while the database is down, stays up, and recovers within 5 s', async () => {
    expect((await writeMessage(child, member, 'before-down')).status).toBe(201);
    const statuses: number[] = [];
    let polling = true;
    // Reads all along, as members keep using the app: only 200 or 503, never a 500 or a 401.
    const poller = (async () => {
      while (polling) {
        try {
          const res = await fetch(`${child.url}/rest/v1/lovy_messages?select=content`, {
            headers: memberHeaders(member),
            signal: AbortSignal.timeout(8000),
          });
          statuses.push(res.status);
          await res.arrayBuffer();
        } catch {
          statuses.push(-1);
        }
        await sleep(50);
      }
    })();

    await proxy.goDown();
    try {
      const health = await fetch(`${child.url}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: 'degraded', database: { ok: false } });
      const write = await writeMessage(child, member, 'while-down');
      expect(write.status).toBe(503);
      expect(await write.json()).toMatchObject({ code: 'PGRST001', message: expect.any(String) });
      const read = await fetch(`${child.url}/rest/v1/lovy_messages?select=content`, {
        headers: memberHeaders(member),
      });
      expect(read.status).toBe(503);
      await sleep(1500);
      expect(child.proc.exitCode).toBeNull();
    } finally {
      await proxy.comeUp();
    }

    const upAt = Date.now();
    let recovered = false;
    while (Date.now() - upAt < 5000) {
      const [h, w] = await Promise.all([
        fetch(`${child.url}/health`),
        fetch(`${child.url}/rest/v1/lovy_messages?select=content&limit=1`, {
          headers: memberHeaders(member),
        }),
      ]);
      if (h.status === 200 && w.status === 200) {
        recovered = true;
        break;
      }
      await sleep(100);
    }
    expect(recovered, `not recovered within 5 s:\n${child.output()}`).toBe(true);
    expect((await writeMessage(child, member, 'after-up')).status).toBe(201);
    polling = false;
    await poller;
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(statuses).toContain(503);
    expect(child.proc.exitCode).toBeNull();
  }, 60_000);

  it('keeps every acknowledged write, once, across kill -9 and a restart', async () => {
    const port = Number(new URL(child.url).port);
    const acknowledged = await writeUntilKilled(child, member, 120);
    const viaProxy = new URL(testDb.url!);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    child = spawnServer(dataDir, port, { DATABASE_URL: viaProxy.toString() });
    await waitHealthy(child);
    expectAllOnce(await readMessages(child, member), acknowledged);

    // Graceful shutdown on PostgreSQL too: the pool ends and the process exits 0.
    const started = Date.now();
    child.proc.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
  }, 180_000);
});
