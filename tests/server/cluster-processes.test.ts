// Two server processes on one PostgreSQL serve one community (decision 0052): realtime broadcast and
// presence cross between them, a sign-out through one closes the member's channel on the other, and a
// row written through one reaches a replica synced from the other with the safety poll turned off.
// Each "process" is a full server (its own pool, bus, hub and replicator) in this test's process, so
// the only way between them is PostgreSQL; `npm start` with WORKERS=2 is checked as a child process.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Schema, Table, column } from '@powersync/node';
import pg from 'pg';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../server/auth/rate-limit.ts';
import { createPostgresBus } from '../../server/cluster/cluster-bus.ts';
import { parseConfig } from '../../server/config.ts';
import { createServer, type Server } from '../../server/create-server.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openDatabase } from '../../server/db/open-database.ts';
import { getSyncService } from '../../server/sync/sync-part.ts';
import { getDatabaseKinds, getDatabaseUrl } from '../support/test-databases.ts';
import { getFreePort, startTestServer, type TestServer } from '../support/test-server.ts';
import {
  closeClient,
  createMember,
  makeClient,
  subscribe,
  waitFor,
  type Member,
} from './realtime-support.ts';
import { openSyncClient, waitFor as waitForValue, type SyncClient } from './sync-support.ts';

const root = path.resolve(import.meta.dirname, '../..');

const schema = new Schema({
  lovy_messages: new Table({ user_id: column.text, role: column.text, content: column.text }),
});

describe.runIf(getDatabaseKinds().includes('postgres'))('two server processes on one PostgreSQL', () => {
  let a: TestServer;
  /** The second process: same database, same keys and public URL, its own port. */
  let b: TestServer;
  let bServer: Server;
  let alice: Member;
  let bob: Member;
  const clients: SupabaseClient[] = [];
  const syncClients: SyncClient[] = [];

  beforeAll(async () => {
    a = await startTestServer('postgres');
    const port = await getFreePort();
    const db = await openDatabase({ databaseUrl: a.db.url!, dataDir: a.dataDir }, () => {});
    const config = parseConfig({
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      // One community has one public URL: tokens name it as their issuer, whichever process made them.
      PUBLIC_URL: a.url,
      DATA_DIR: a.dataDir,
      DEMO: '0',
      LOG_LEVEL: 'silent',
    });
    bServer = await createServer(config, { db, skipMigrations: true, logger: false });
    await bServer.app.listen({ port, host: '127.0.0.1' });
    b = {
      ...a,
      url: `http://127.0.0.1:${port}`,
      server: bServer,
      async close() {
        await bServer.close();
        await db.close();
      },
    };
    alice = await createMember(a);
    bob = await createMember(a);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map(closeClient));
    await Promise.all(syncClients.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const client = async (t: TestServer, token: string) => {
    const c = await makeClient(t, token);
    clients.push(c);
    return c;
  };

  it('broadcasts sent on one process reach a subscriber on the other, in order, equal ones too', async () => {
    const topic = `public:cluster-${crypto.randomUUID().slice(0, 8)}`;
    const onB = (await client(b, bob.token)).channel(topic);
    const got: number[] = [];
    onB.on('broadcast', { event: 'n' }, ({ payload }) => got.push((payload as { n: number }).n));
    expect((await subscribe(onB)).status).toBe('SUBSCRIBED');
    const onA = (await client(a, alice.token)).channel(topic);
    expect((await subscribe(onA)).status).toBe('SUBSCRIBED');
    for (let n = 1; n <= 20; n++) await onA.send({ type: 'broadcast', event: 'n', payload: { n } });
    // The same broadcast twice, sent at once: PostgreSQL folds equal notifications of one transaction.
    await Promise.all([1, 2].map(() => onA.send({ type: 'broadcast', event: 'n', payload: { n: 21 } })));
    await waitFor('all 22 broadcasts on the other process', () => got.length === 22, 10_000);
    expect(got).toEqual([...Array.from({ length: 20 }, (_, i) => i + 1), 21, 21]);
  });

  it('a broadcast larger than one notification crosses whole', async () => {
    const topic = `public:cluster-big-${crypto.randomUUID().slice(0, 8)}`;
    const onB = (await client(b, bob.token)).channel(topic);
    let received: string | undefined;
    onB.on('broadcast', { event: 'big' }, ({ payload }) => (received = (payload as { s: string }).s));
    expect((await subscribe(onB)).status).toBe('SUBSCRIBED');
    const onA = (await client(a, alice.token)).channel(topic);
    expect((await subscribe(onA)).status).toBe('SUBSCRIBED');
    // Over pg_notify's 8000-byte limit, with multi-byte characters across the chunk borders.
    const s = 'héllo wörld ✓ '.repeat(2500);
    await onA.send({ type: 'broadcast', event: 'big', payload: { s } });
    await waitFor('the large broadcast', () => received, 10_000);
    expect(received).toBe(s);
  });

  it('presence on one process is seen, joining and leaving, from the other', async () => {
    const onA = (await client(a, alice.token)).channel('online-users');
    onA.on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(onA)).status).toBe('SUBSCRIBED');
    expect(await onA.track({ userId: alice.id, lastActivity: 1 })).toBe('ok');

    const bobClient = await client(b, bob.token);
    const onB = bobClient.channel('online-users');
    const leaves: string[] = [];
    onB.on('presence', { event: 'sync' }, () => {});
    onB.on('presence', { event: 'leave' }, ({ key }) => leaves.push(key));
    expect((await subscribe(onB)).status).toBe('SUBSCRIBED');
    await waitFor('bob on B sees alice tracked on A', () => onB.presenceState()[alice.id], 10_000);
    expect(await onB.track({ userId: bob.id, lastActivity: 2 })).toBe('ok');
    await waitFor('alice on A sees bob tracked on B', () => onA.presenceState()[bob.id], 10_000);

    await onA.untrack();
    await waitFor('bob sees alice leave', () => leaves.includes(alice.id), 10_000);
    expect(onB.presenceState()[alice.id]).toBeUndefined();
  });

  it("a session ended on one process closes the member's channel on the other", async () => {
    const topic = `public:cluster-end-${crypto.randomUUID().slice(0, 8)}`;
    const onB = (await client(b, alice.token)).channel(topic);
    expect((await subscribe(onB)).status).toBe('SUBSCRIBED');
    a.server.ctx.events.emit('sessions-ended', { userId: alice.id, sessionIds: 'all' });
    // B's hub ends the channel from the server side (phx_close): realtime-js leaves 'joined'.
    await waitFor('the channel on B ended', () => onB.state !== 'joined', 10_000);
  });

  it('rows written through one process reach a replica synced from the other, with no poll', async () => {
    // B's replicator is stopped: its own replication or safety poll cannot wake the streams on B, only A's
    // batches relayed over the bus can (small ones whole, so B's streams send them from memory).
    await getSyncService(bServer.app).replicator.stop();
    const member = await createMember(a);
    const sync = await openSyncClient(b, schema, async () => member.token);
    syncClients.push(sync);
    await sync.db.waitForFirstSync();

    // The same member's stream on B read on the wire: every checkpoint's checksums and counts must equal
    // the ops it was sent, whether B sent it from a relayed batch or read it back.
    const wire = await fetch(`${b.url}/sync/stream`, {
      method: 'POST',
      headers: { authorization: `Token ${member.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ buckets: [], client_id: 'wire' }),
    });
    const reader = wire.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    const expected = new Map<string, { checksum: number; count: number }>();
    const got = new Map<string, { checksum: number; count: number }>();
    const contentsSeen = new Set<string>();
    const readUntil = async (until: () => boolean) => {
      for (;;) {
        const nl = buffered.indexOf('\n');
        if (nl < 0) {
          const next = await reader.read();
          if (next.done) throw new Error('stream ended');
          buffered += decoder.decode(next.value);
          continue;
        }
        const line = JSON.parse(buffered.slice(0, nl)) as {
          checkpoint?: { buckets: { bucket: string; checksum: number; count: number }[] };
          checkpoint_diff?: {
            updated_buckets: { bucket: string; checksum: number; count: number }[];
            removed_buckets: string[];
          };
          data?: { bucket: string; data: { op: string; data?: string; checksum: number }[] };
          checkpoint_complete?: unknown;
        };
        buffered = buffered.slice(nl + 1);
        if (line.checkpoint) expected.clear();
        for (const x of line.checkpoint?.buckets ?? line.checkpoint_diff?.updated_buckets ?? [])
          expected.set(x.bucket, x);
        for (const x of line.checkpoint_diff?.removed_buckets ?? []) expected.delete(x);
        for (const op of line.data?.data ?? []) {
          const mine = got.get(line.data!.bucket) ?? { checksum: 0, count: 0 };
          mine.checksum = (mine.checksum + op.checksum) % 2 ** 32;
          mine.count += 1;
          got.set(line.data!.bucket, mine);
          if (op.op === 'PUT' && op.data)
            contentsSeen.add((JSON.parse(op.data) as { content?: string }).content ?? '');
        }
        if (line.checkpoint_complete) {
          for (const [bucket, e] of expected)
            expect({ bucket, ...(got.get(bucket) ?? { checksum: 0, count: 0 }) }).toEqual({
              bucket,
              checksum: e.checksum,
              count: e.count,
            });
          if (until()) return;
        }
      }
    };
    await readUntil(() => true);

    const contents = Array.from({ length: 12 }, (_, i) => `from A ${i} ${crypto.randomUUID()}`);
    for (const content of contents) {
      const res = await fetch(`${a.url}/rest/v1/lovy_messages`, {
        method: 'POST',
        headers: {
          apikey: a.anonKey,
          authorization: `Bearer ${member.token}`,
          'content-type': 'application/json',
          prefer: 'return=minimal',
        },
        body: JSON.stringify({ role: 'user', content }),
      });
      expect(res.status).toBe(201);
    }
    await readUntil(() => contents.every((c) => contentsSeen.has(c)));
    await reader.cancel();
    const rows = await waitForValue(
      () => sync.db.getAll<{ content: string }>('select content from lovy_messages'),
      (r) => contents.every((c) => r.some((x) => x.content === c)),
      15_000,
      20,
    );
    expect(rows).toHaveLength(contents.length);
  });
});

describe.runIf(getDatabaseKinds().includes('postgres'))('auth rate limits across processes', () => {
  it('hits counted on one process count on the other, so the limit holds for the community', async () => {
    const t = await startTestServer('postgres');
    const second = await openDatabase({ databaseUrl: t.db.url!, dataDir: t.dataDir }, () => {});
    const log = { warn: () => {} };
    const [busA, busB] = [await createPostgresBus(t.db, log), await createPostgresBus(second, log)];
    try {
      const options = { max: 10, windowSeconds: 60, name: 'auth' };
      const onA = createRateLimiter({ ...options, bus: busA });
      const onB = createRateLimiter({ ...options, bus: busB });
      const alone = createRateLimiter(options);
      for (let i = 0; i < 10; i++) onA.hit(['signin:email:x@example.test']);
      await waitFor(
        "B counted A's ten hits",
        () => onB.getCount('signin:email:x@example.test') === 10,
        10_000,
      );
      expect(() => onB.hit(['signin:email:x@example.test'])).toThrow(/rate limit|too many/i);
      // Without the bus a process would have let it through.
      for (let i = 0; i < 10; i++) alone.hit(['signin:email:x@example.test']);
      expect(alone.getCount('signin:email:x@example.test')).toBe(10);
    } finally {
      await busA.close();
      await busB.close();
      await second.close();
      await t.close();
    }
  });
});

describe.runIf(getDatabaseKinds().includes('postgres'))(
  'processes started together on an empty database',
  () => {
    it('apply each migration once: the second waits for the first, then finds nothing to do', async () => {
      const base = process.env['TEST_DATABASE_URL']!;
      const name = `hs_migrate_${crypto.randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = getDatabaseUrl(base, name);
      const dbs = [
        await openDatabase({ databaseUrl: url, dataDir: os.tmpdir() }, () => {}),
        await openDatabase({ databaseUrl: url, dataDir: os.tmpdir() }, () => {}),
      ];
      try {
        const results = await Promise.all(dbs.map((db) => migrate(db)));
        const applied = results.map((r) => r.applied.length).sort((x, y) => x - y);
        expect(applied[0]).toBe(0);
        expect(applied[1]).toBeGreaterThan(20);
        const { rows } = await dbs[0]!.query<{ n: number }>(
          'select count(*)::int as n from heartsync_meta.migrations',
        );
        expect(rows[0]!.n).toBe(applied[1]);
      } finally {
        for (const db of dbs) await db.close();
        await admin.query(`drop database ${name} with (force)`);
        await admin.end();
      }
    }, 180_000);
  },
);

describe('npm start with WORKERS', () => {
  it('refuses several workers on the embedded database, saying why', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env['PATH'] ?? '',
        WORKERS: '2',
        DATA_DIR: '/nonexistent-never-used',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(out).toContain('WORKERS > 1 needs DATABASE_URL');
  });

  it.runIf(getDatabaseKinds().includes('postgres'))(
    'serves one port from two worker processes on PostgreSQL',
    async () => {
      const t = await startTestServer('postgres');
      // The test server migrated the database; the primary finds nothing to do and forks two workers.
      await t.server.close();
      const port = await getFreePort();
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: root,
        env: {
          PATH: process.env['PATH'] ?? '',
          WORKERS: '2',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: t.db.url!,
          DATA_DIR: t.dataDir,
          DEMO: '0',
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      try {
        expect(
          await waitForValue(
            async () => {
              if (child.exitCode !== null) throw new Error(`exited:\n${out}`);
              return fetch(`http://127.0.0.1:${port}/health`)
                .then((r) => r.status)
                .catch(() => 0);
            },
            (s) => s === 200,
            90_000,
            200,
          ),
        ).toBe(200);
        expect(out).toContain('2 worker processes on PostgreSQL');
      } finally {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
        await t.db.destroy();
      }
    },
    120_000,
  );
});
