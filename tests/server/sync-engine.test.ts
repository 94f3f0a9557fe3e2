// The sync service against the real @powersync/node client, with rules and tables of the test's own.
import crypto from 'node:crypto';
import { Schema, Table, column } from '@powersync/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import {
  openSyncClient,
  startSyncServer,
  waitFor,
  type SyncClient,
  type SyncTestServer,
} from './sync-support.ts';

const setupSql = `
  create table public.t_lists (id uuid primary key, owner_id uuid not null, name text not null);
  create table public.t_items (id uuid primary key, list_id uuid not null, title text not null,
    secret text, done boolean not null default false, n bigint not null default 0);
  create table public.t_content (id text primary key, body jsonb not null);
`;

const rulesYaml = `
bucket_definitions:
  own_lists:
    parameters: select id as list_id from t_lists where owner_id = request.user_id()
    data:
      - select id, name from t_lists where id = bucket.list_id
      - select id, list_id, title, done, n from t_items where list_id = bucket.list_id
  global:
    data:
      - select id, body from t_content
`;

const schema = new Schema({
  t_lists: new Table({ name: column.text }),
  t_items: new Table({ list_id: column.text, title: column.text, done: column.integer, n: column.integer }),
  t_content: new Table({ body: column.text }),
});

describe.each(getDatabaseKinds())('sync engine on %s', (kind) => {
  let t: SyncTestServer;
  const alice = crypto.randomUUID();
  const bob = crypto.randomUUID();
  const aliceList = crypto.randomUUID();
  const bobList = crypto.randomUUID();
  const clients: SyncClient[] = [];

  beforeAll(async () => {
    // A poll too slow to matter: changes must arrive through LISTEN/NOTIFY and the in-process wake-up.
    t = await startSyncServer(kind, { rulesYaml, setupSql, pollMs: 60_000 });
    await t.db.query('insert into t_lists (id, owner_id, name) values ($1, $2, $3), ($4, $5, $6)', [
      aliceList,
      alice,
      'Alice groceries',
      bobList,
      bob,
      'Bob secrets',
    ]);
    await t.db.query(
      `insert into t_items (id, list_id, title, secret, done, n)
       select gen_random_uuid(), $1, 'item ' || g, 'hidden', g % 2 = 0, g from generate_series(1, 50) g`,
      [aliceList],
    );
    await t.db.query(
      `insert into t_items (id, list_id, title, secret) values (gen_random_uuid(), $1, 'bob item', 'x')`,
      [bobList],
    );
    await t.db.query(`insert into t_content (id, body) values ('welcome', '{"text":"hi"}')`);
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  async function connect(sub: string) {
    const c = await openSyncClient(t, schema, () => t.signToken(sub));
    clients.push(c);
    return c;
  }

  it('syncs a member exactly the rows the rules grant, with only the listed columns', async () => {
    const c = await connect(alice);
    await c.db.waitForFirstSync();
    const lists = await c.db.getAll<{ id: string; name: string }>('select id, name from t_lists');
    expect(lists).toEqual([{ id: aliceList, name: 'Alice groceries' }]);
    const items = await c.db.getAll<{ title: string; done: number; n: number; list_id: string }>(
      'select title, done, n, list_id from t_items order by n',
    );
    expect(items).toHaveLength(50);
    expect(items[1]).toEqual({ title: 'item 2', done: 1, n: 2, list_id: aliceList });
    // The private column never reaches the replica, not even as untyped data.
    const raw = await c.db.getAll<{ data: string }>('select data from ps_data__t_items');
    expect(raw.every((r) => !r.data.includes('hidden'))).toBe(true);
    expect(await c.db.getAll('select body from t_content')).toEqual([{ body: '{"text":"hi"}' }]);
  });

  it('applies committed inserts, updates and deletes on a connected client', async () => {
    const c = await connect(alice);
    await c.db.waitForFirstSync();
    const id = crypto.randomUUID();
    for (const step of ['insert', 'update', 'delete'] as const) {
      if (step === 'insert') {
        await t.db.query(`insert into t_items (id, list_id, title) values ($1, $2, 'fresh')`, [
          id,
          aliceList,
        ]);
      } else if (step === 'update') {
        await t.db.query(`update t_items set title = 'renamed' where id = $1`, [id]);
      } else {
        await t.db.query('delete from t_items where id = $1', [id]);
      }
      const expected = step === 'insert' ? ['fresh'] : step === 'update' ? ['renamed'] : [];
      await waitFor(
        async () =>
          (await c.db.getAll<{ title: string }>('select title from t_items where id = ?', [id])).map(
            (r) => r.title,
          ),
        (v) => JSON.stringify(v) === JSON.stringify(expected),
      );
    }
  });

  // Speed is bench/sync's business; this checks what a change puts on the wire. With no poll (PGlite has
  // none, PostgreSQL's is a minute here) every change arrives through LISTEN/NOTIFY and the in-process
  // wake-up, and whether a checkpoint is sent from memory or read back, every checksum and position in it
  // must agree with the ops sent before it.
  it('pushes each change at once with checksums, counts and positions that agree with the ops sent', async () => {
    // Earlier tests' SDK clients share this process's CPU; they are not needed here.
    for (const c of clients.splice(0)) await c.close();
    const res = await fetch(`${t.url}/sync/stream`, {
      method: 'POST',
      headers: { authorization: `Token ${await t.signToken(alice)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ buckets: [], client_id: 'wire' }),
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    type Op = { op_id: string; op: string; object_id?: string; data?: string; checksum: number };
    type Line = {
      checkpoint?: { last_op_id: string; buckets: { bucket: string; checksum: number; count: number }[] };
      checkpoint_diff?: {
        last_op_id: string;
        updated_buckets: { bucket: string; checksum: number; count: number }[];
        removed_buckets: string[];
        write_checkpoint?: string;
      };
      data?: { bucket: string; after: string; next_after: string; data: Op[] };
      checkpoint_complete?: { last_op_id: string };
    };
    const expected = new Map<string, { checksum: number; count: number }>();
    const got = new Map<string, { checksum: number; count: number; position: string }>();
    const seen: Op[] = [];
    let lastOpId = 0n;
    let writeCheckpoint: string | undefined;
    /** The write checkpoint of the last completed checkpoint: the client's uploads up to it are in. */
    let completedWriteCheckpoint: string | undefined;
    /** Reads and checks lines until a checkpoint_complete after which `until` holds. */
    const readUntil = async (until: () => boolean) => {
      for (;;) {
        const nl = buffered.indexOf('\n');
        if (nl < 0) {
          const next = await reader.read();
          if (next.done) throw new Error('stream ended');
          buffered += decoder.decode(next.value);
          continue;
        }
        const line = JSON.parse(buffered.slice(0, nl)) as Line;
        buffered = buffered.slice(nl + 1);
        const cp = line.checkpoint ?? line.checkpoint_diff;
        if (line.checkpoint) expected.clear();
        if (cp) {
          expect(BigInt(cp.last_op_id)).toBeGreaterThanOrEqual(lastOpId);
          lastOpId = BigInt(cp.last_op_id);
          if (line.checkpoint_diff?.write_checkpoint) writeCheckpoint = line.checkpoint_diff.write_checkpoint;
          for (const b of 'buckets' in cp ? cp.buckets : cp.updated_buckets) expected.set(b.bucket, b);
          for (const b of line.checkpoint_diff?.removed_buckets ?? []) expected.delete(b);
        }
        if (line.data) {
          const d = line.data;
          const mine = got.get(d.bucket) ?? { checksum: 0, count: 0, position: '0' };
          // Each data line starts where the last one of its bucket ended.
          expect(d.after).toBe(mine.position);
          for (const op of d.data) {
            expect(BigInt(op.op_id)).toBeGreaterThan(BigInt(mine.position));
            expect(BigInt(op.op_id)).toBeLessThanOrEqual(lastOpId);
            mine.checksum = (mine.checksum + op.checksum) % 2 ** 32;
            mine.count += 1;
            mine.position = op.op_id;
            seen.push(op);
          }
          expect(d.next_after).toBe(mine.position);
          got.set(d.bucket, mine);
        }
        if (line.checkpoint_complete) {
          expect(line.checkpoint_complete.last_op_id).toBe(String(lastOpId));
          if (writeCheckpoint !== undefined) expect(lastOpId).toBeGreaterThanOrEqual(BigInt(writeCheckpoint));
          completedWriteCheckpoint = writeCheckpoint;
          for (const [bucket, e] of expected) {
            const mine = got.get(bucket) ?? { checksum: 0, count: 0 };
            expect({ bucket, checksum: mine.checksum, count: mine.count }).toEqual({
              bucket,
              checksum: e.checksum,
              count: e.count,
            });
          }
          if (until()) return;
        }
      }
    };
    const putOf = (id: string) => seen.filter((o) => o.object_id === id && o.op === 'PUT').length;
    const removesOf = (id: string) => seen.filter((o) => o.object_id === id && o.op === 'REMOVE').length;
    await readUntil(() => true);
    expect(expected.size).toBeGreaterThan(0);

    const id = crypto.randomUUID();
    const insert = (title: string) =>
      t.db.query(`insert into t_items (id, list_id, title) values ($1, $2, $3)`, [id, aliceList, title]);
    await insert('wire');
    await readUntil(() => putOf(id) === 1);
    // A write checkpoint of this client arrives in a checkpoint that reaches it (sent from what the stream
    // followed); one of another client of the same member is not this stream's.
    const requestWriteCheckpoint = async (client: string) => {
      const r = await t.app.inject({
        url: `/write-checkpoint2.json?client_id=${client}`,
        headers: { authorization: `Token ${await t.signToken(alice)}` },
      });
      return r.json<{ data: { write_checkpoint: string } }>().data.write_checkpoint;
    };
    const firstWriteCheckpoint = await requestWriteCheckpoint('wire');
    await readUntil(() => completedWriteCheckpoint === firstWriteCheckpoint);
    // Bob's list is not Alice's: that batch moves the head without touching her buckets.
    await t.db.query(`insert into t_items (id, list_id, title) values (gen_random_uuid(), $1, 'b')`, [
      bobList,
    ]);
    await t.db.query(`update t_items set title = 'wire 2' where id = $1`, [id]);
    await readUntil(() => putOf(id) === 2);
    const elsewhere = await requestWriteCheckpoint('elsewhere');
    // Bob's batch moved the head past Alice's last change: the checkpoint carrying it reaches that head.
    await t.db.query(`insert into t_items (id, list_id, title) values (gen_random_uuid(), $1, 'b2')`, [
      bobList,
    ]);
    const secondWriteCheckpoint = await requestWriteCheckpoint('wire');
    expect(BigInt(secondWriteCheckpoint)).toBeGreaterThan(BigInt(elsewhere));
    await readUntil(() => completedWriteCheckpoint === secondWriteCheckpoint);
    expect(completedWriteCheckpoint).not.toBe(elsewhere);
    await t.db.query('delete from t_items where id = $1', [id]);
    await readUntil(() => removesOf(id) === 1);
    // The same row again, exactly as it was deleted: it was removed, so it must come back.
    await insert('wire 2');
    await readUntil(() => putOf(id) === 3);
    // A burst of separate commits: several batches, followed or read back, all accounted for.
    const burst = Array.from({ length: 12 }, () => crypto.randomUUID());
    await Promise.all(
      burst.map((b, i) =>
        t.db.query(`insert into t_items (id, list_id, title) values ($1, $2, $3)`, [
          b,
          i % 3 === 0 ? bobList : aliceList,
          `burst ${i}`,
        ]),
      ),
    );
    await readUntil(() => burst.filter((_b, i) => i % 3 !== 0).every((b) => putOf(b) === 1));
    expect(burst.filter((_b, i) => i % 3 === 0).some((b) => putOf(b) > 0)).toBe(false);
    // A new list of Alice's adds a bucket (read from the database), and a change after it is followed again.
    const list = crypto.randomUUID();
    await t.db.query('insert into t_lists (id, owner_id, name) values ($1, $2, $3)', [list, alice, 'new']);
    await readUntil(() => putOf(list) === 1);
    const later = crypto.randomUUID();
    await t.db.query(`insert into t_items (id, list_id, title) values ($1, $2, 'later')`, [later, list]);
    await readUntil(() => putOf(later) === 1);
    await t.db.query('delete from t_lists where id = $1', [list]);
    await t.db.query('delete from t_items where id = $1', [later]);
    await readUntil(() => [...expected.keys()].every((b) => !b.includes(list)));
    await reader.cancel();
    // Bob's list as the next test expects it.
    await t.db.query(`delete from t_items where list_id = $1 and title <> 'bob item'`, [bobList]);
  });

  it('adds a bucket when a parameter row appears and removes it with its rows when it goes', async () => {
    const c = await connect(bob);
    await c.db.waitForFirstSync();
    const count = async () => (await c.db.get<{ n: number }>('select count(*) as n from t_items')).n;
    expect(await count()).toBe(1);
    const aliceItems = Number(
      (await t.db.query<{ n: string }>('select count(*) as n from t_items where list_id = $1', [aliceList]))
        .rows[0]?.n,
    );
    // Alice's list is handed to Bob: its items appear; taken back: they leave Bob's replica.
    await t.db.query('update t_lists set owner_id = $1 where id = $2', [bob, aliceList]);
    await waitFor(count, (n) => n === 1 + aliceItems);
    await t.db.query('update t_lists set owner_id = $1 where id = $2', [alice, aliceList]);
    await waitFor(count, (n) => n === 1);
    expect(await c.db.getAll('select id from t_lists')).toEqual([{ id: bobList }]);
  });
});

describe.each(getDatabaseKinds())('sync repair, restart and compaction on %s', (kind) => {
  let t: SyncTestServer;
  const alice = crypto.randomUUID();
  const list = crypto.randomUUID();
  const clients: SyncClient[] = [];
  const titles = async (c: SyncClient) =>
    (await c.db.getAll<{ title: string }>('select title from t_items order by title')).map((r) => r.title);
  const serverTitles = async () =>
    (
      await t.db.query<{ title: string }>('select title from t_items where list_id = $1 order by title', [
        list,
      ])
    ).rows.map((r) => r.title);

  beforeAll(async () => {
    t = await startSyncServer(kind, { rulesYaml, setupSql });
    await t.db.query('insert into t_lists (id, owner_id, name) values ($1, $2, $3)', [list, alice, 'L']);
    await t.db.query(
      `insert into t_items (id, list_id, title) select gen_random_uuid(), $1, 'item ' || lpad(g::text, 3, '0')
         from generate_series(1, 20) g`,
      [list],
    );
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  async function connect() {
    const c = await openSyncClient(t, schema, () => t.signToken(alice));
    clients.push(c);
    await c.db.waitForFirstSync();
    return c;
  }

  it('repairs a corrupted local bucket: the checksum mismatch makes the client download it again', async () => {
    const c = await connect();
    expect(await titles(c)).toEqual(await serverTitles());
    // Lose one row and its op locally, behind the SDK's back.
    const victim = await c.db.get<{ id: string }>("select id from t_items where title = 'item 001'");
    await c.db.execute('delete from ps_oplog where row_id = ?', [victim.id]);
    await c.db.execute('delete from ps_data__t_items where id = ?', [victim.id]);
    // The SDK keeps a running checksum per bucket; corruption of the stored ops shows there.
    await c.db.execute("update ps_buckets set op_checksum = op_checksum + 1 where name like 'own_lists%'");
    expect(await titles(c)).not.toContain('item 001');
    // The next checkpoint of that bucket carries a checksum the client no longer matches.
    await t.db.query(`insert into t_items (id, list_id, title) values (gen_random_uuid(), $1, 'item 021')`, [
      list,
    ]);
    await waitFor(
      () => titles(c),
      (v) => v.includes('item 001') && v.includes('item 021'),
    );
    expect(await titles(c)).toEqual(await serverTitles());
  });

  it('survives a server restart: nothing committed meanwhile is lost and the client resumes from its position', async () => {
    const c = await connect();
    const requestsBefore = t.streamRequests.length;
    await t.stop();
    await t.db.query(
      `insert into t_items (id, list_id, title) values (gen_random_uuid(), $1, 'while down')`,
      [list],
    );
    await t.db.query(`update t_items set title = 'renamed while down' where title = 'item 002'`);
    await t.start();
    await waitFor(
      () => titles(c),
      (v) => v.includes('while down') && v.includes('renamed while down'),
      20_000,
    );
    expect(await titles(c)).toEqual(await serverTitles());
    // The reconnect asked for ops after what it held, not for everything again.
    const resumed = t.streamRequests.slice(requestsBefore);
    expect(resumed.length).toBeGreaterThan(0);
    const positions = resumed[0]?.buckets ?? [];
    expect(positions.length).toBeGreaterThan(0);
    expect(positions.every((b) => BigInt(b.after) > 0n)).toBe(true);
  });

  it('compaction shrinks the op log and keeps old and new clients correct', async () => {
    const old = await connect();
    for (let round = 0; round < 5; round++) {
      await t.db.query(`update t_items set title = title || '.' where list_id = $1`, [list]);
    }
    await t.db.query(`delete from t_items where title like 'item 01%'`);
    const count = async () =>
      Number((await t.db.query<{ n: string }>('select count(*) as n from heartsync_sync.ops')).rows[0]?.n);
    await t.sync.replicator.flush();
    const before = await count();
    const result = await t.sync.compact();
    expect(result.moved).toBeGreaterThan(0);
    const after = await count();
    expect(after).toBeLessThan(before);
    await t.db.query(
      `insert into t_items (id, list_id, title) values (gen_random_uuid(), $1, 'after compaction')`,
      [list],
    );
    const expected = await serverTitles();
    await waitFor(
      () => titles(old),
      (v) => JSON.stringify(v) === JSON.stringify(expected),
    );
    const fresh = await connect();
    expect(await titles(fresh)).toEqual(expected);
    // A second pass finds nothing more to do: the log is at its compact size. It reads only the bucket
    // written since the first pass (the list's), and a pass with no write since reads none.
    await t.sync.replicator.flush();
    const again = await t.sync.compact();
    expect(again).toMatchObject({ buckets: 1, moved: 0 });
    expect(await t.sync.compact()).toEqual({ buckets: 0, moved: 0, cleared: 0, deleted: 0 });
  });
});

describe.each(getDatabaseKinds())('sync stream lifetime on %s', (kind) => {
  let t: SyncTestServer;
  const member = crypto.randomUUID();

  beforeAll(async () => {
    t = await startSyncServer(kind, { rulesYaml, setupSql, keepaliveMs: 200 });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Opens a raw stream and collects its lines until it ends or `ms` pass; reports whether it ended. */
  async function readStream(token: string, ms: number, whileOpen?: () => void) {
    const res = await fetch(`${t.url}/sync/stream`, {
      method: 'POST',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ buckets: [], client_id: 'raw' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const reader = res.body!.getReader();
    const lines: Record<string, unknown>[] = [];
    let text = '';
    let ended = false;
    const deadline = Date.now() + ms;
    setTimeout(() => whileOpen?.(), 300);
    while (Date.now() < deadline) {
      const next = await Promise.race([
        reader.read(),
        new Promise<'wait'>((r) => setTimeout(() => r('wait'), Math.max(1, deadline - Date.now()))),
      ]);
      if (next === 'wait') break;
      if (next.done) {
        ended = true;
        break;
      }
      text += new TextDecoder().decode(next.value);
    }
    if (!ended) await reader.cancel();
    for (const l of text.split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
    return { lines, ended };
  }

  it('sends keep-alive lines with the seconds left on the token, and ends the stream when it expires', async () => {
    const { lines, ended } = await readStream(await t.signToken(member, 2), 5000);
    // The first checkpoint is read from the database while the 200 ms keep-alive timer runs: on a busy machine a
    // keep-alive line comes first (seen in CI on PostgreSQL, 2026-12-08), which clients accept at any point.
    expect(lines.some((l) => 'checkpoint' in l)).toBe(true);
    const keepalives = lines
      .filter((l) => 'token_expires_in' in l)
      .map((l) => l['token_expires_in'] as number);
    expect(keepalives.length).toBeGreaterThan(0);
    expect(keepalives.every((s) => s >= 0 && s <= 2)).toBe(true);
    expect(ended).toBe(true);
  });

  it("ends a member's streams when their sessions end", async () => {
    const { ended } = await readStream(await t.signToken(member, 3600), 3000, () =>
      t.ctx.events.emit('sessions-ended', { userId: member, sessionIds: 'all' }),
    );
    expect(ended).toBe(true);
    const other = await readStream(await t.signToken(member, 3600), 1000, () =>
      t.ctx.events.emit('sessions-ended', { userId: crypto.randomUUID(), sessionIds: 'all' }),
    );
    expect(other.ended).toBe(false);
  });
});
