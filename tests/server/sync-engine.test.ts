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
    t = await startSyncServer(kind, { rulesYaml, setupSql });
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

  it('delivers a committed insert, update and delete to a connected client within 100 ms', async () => {
    const c = await connect(alice);
    await c.db.waitForFirstSync();
    const id = crypto.randomUUID();
    const latencies: number[] = [];
    for (const step of ['insert', 'update', 'delete'] as const) {
      const started = performance.now();
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
        5000,
        2,
      );
      latencies.push(performance.now() - started);
    }
    expect(
      Math.max(...latencies),
      `latencies ${latencies.map((l) => l.toFixed(1)).join(', ')} ms`,
    ).toBeLessThan(100);
  });

  it('adds a bucket when a parameter row appears and removes it with its rows when it goes', async () => {
    const c = await connect(bob);
    await c.db.waitForFirstSync();
    const count = async () => (await c.db.get<{ n: number }>('select count(*) as n from t_items')).n;
    expect(await count()).toBe(1);
    // Alice's list is handed to Bob: its 50 items appear; taken back: they leave Bob's replica.
    await t.db.query('update t_lists set owner_id = $1 where id = $2', [bob, aliceList]);
    await waitFor(count, (n) => n === 51);
    await t.db.query('update t_lists set owner_id = $1 where id = $2', [alice, aliceList]);
    await waitFor(count, (n) => n === 1);
    expect(await c.db.getAll('select id from t_lists')).toEqual([{ id: bobList }]);
  });
});
