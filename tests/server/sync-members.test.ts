// The real sync rules on the app's tables: members' replicas hold what the rules and RLS grant, uploads
// come back through write checkpoints, and an unmatch removes the match from both replicas.
import crypto from 'node:crypto';
import { Schema, Table, column, type AbstractPowerSyncDatabase } from '@powersync/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asActor, member } from '../support/as-role.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createMember, makeMatch, updateRow } from '../sql/support/members.ts';
import { signMemberToken } from './realtime-support.ts';
import { openSyncClient, waitFor, type SyncClient } from './sync-support.ts';

const schema = new Schema({
  profiles: new Table({
    name: column.text,
    email: column.text,
    street_address: column.text,
    city: column.text,
  }),
  public_profiles: new Table({ name: column.text, city: column.text, bio: column.text }),
  user_interactions: new Table({
    user_id: column.text,
    target_id: column.text,
    interaction_type: column.text,
  }),
  matches: new Table({ user_id_1: column.text, user_id_2: column.text }),
  conversations: new Table({
    participant1_id: column.text,
    participant2_id: column.text,
    match_id: column.text,
  }),
  messages: new Table({
    conversation_id: column.text,
    sender_id: column.text,
    recipient_id: column.text,
    content: column.text,
    status: column.text,
    created_at: column.text,
  }),
  notifications: new Table({ user_id: column.text, type: column.text, title: column.text }),
});

/** Tables whose replica must equal what RLS lets the member select. */
const rlsEqualTables = [
  'profiles',
  'user_interactions',
  'matches',
  'conversations',
  'messages',
  'notifications',
];

describe.each(getDatabaseKinds())('member replicas on %s', (kind) => {
  let t: TestServer;
  let alice: string;
  let bob: string;
  let carol: string;
  let dave: string;
  let conversationId: string;
  const clients: SyncClient[] = [];
  let aliceClient: SyncClient;
  let bobClient: SyncClient;

  const token = (sub: string) => signMemberToken(t, sub);

  /** While set, uploads wait for it (a slow network between the device and the server). */
  let uploadGate: Promise<void> | undefined;

  /** Uploads the client's queued writes as the member, the way PostgREST would apply them. */
  const uploadAs = (sub: string) => async (db: AbstractPowerSyncDatabase) => {
    await uploadGate;
    const batch = await db.getCrudBatch(100);
    if (!batch) return;
    await asActor(t.db, member(sub), async (tx) => {
      for (const op of batch.crud) {
        const d = op.opData ?? {};
        if (op.table === 'profiles' && op.op === 'PATCH' && Object.keys(d).every((k) => k === 'name')) {
          await tx.query('update public.profiles set name = $1 where id = $2', [d['name'], op.id]);
          continue;
        }
        if (op.table !== 'messages' || op.op !== 'PUT')
          throw new Error(`unexpected upload ${op.table} ${op.op}`);
        await tx.query(
          `insert into public.messages (id, conversation_id, sender_id, recipient_id, content)
           values ($1, $2, $3, $4, $5)`,
          [op.id, d['conversation_id'], d['sender_id'], d['recipient_id'], d['content']],
        );
      }
    });
    await batch.complete();
  };

  const replicaIds = async (c: SyncClient, table: string) =>
    (await c.db.getAll<{ id: string }>(`select id from ${table} order by id`)).map((r) => r.id);
  const rlsIds = async (sub: string, table: string) =>
    asActor(t.db, member(sub), async (tx) =>
      (await tx.query<{ id: string }>(`select id::text as id from public.${table} order by id`)).rows.map(
        (r) => r.id,
      ),
    );

  async function expectReplicaMatchesRls(c: SyncClient, sub: string, tables = rlsEqualTables) {
    for (const table of tables) {
      const expected = (await rlsIds(sub, table)).sort();
      await waitFor(
        async () => (await replicaIds(c, table)).sort(),
        (v) => JSON.stringify(v) === JSON.stringify(expected),
        10_000,
        20,
      ).catch((e: Error) => {
        throw new Error(`${table} of ${sub}: ${e.message}; RLS grants ${JSON.stringify(expected)}`);
      });
    }
    // Other members' cards: a subset of what RLS shows (discovery shows more), never a private row.
    const cards = await replicaIds(c, 'public_profiles');
    const visible = await rlsIds(sub, 'public_profiles');
    expect(cards.every((id) => visible.includes(id))).toBe(true);
  }

  beforeAll(async () => {
    t = await startTestServer(kind);
    alice = await createMember(t.db, { name: 'Alice' });
    bob = await createMember(t.db, { name: 'Bob' });
    carol = await createMember(t.db, { name: 'Carol' });
    dave = await createMember(t.db, { name: 'Dave' });
    await updateRow(t.db, 'profiles', 'id', alice, { street_address: 'Secret Street 1', city: 'Lyon' });
    ({ conversationId } = await makeMatch(t.db, alice, bob));
    await t.db.query(
      `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like')`,
      [carol, alice],
    );
    await asActor(t.db, member(alice), (tx) =>
      tx.query(
        `insert into public.messages (id, conversation_id, sender_id, recipient_id, content) values ($1, $2, $3, $4, 'hello Bob')`,
        [crypto.randomUUID(), conversationId, alice, bob],
      ),
    );
    aliceClient = await openSyncClient(t, schema, () => token(alice), uploadAs(alice));
    bobClient = await openSyncClient(t, schema, () => token(bob), uploadAs(bob));
    clients.push(aliceClient, bobClient);
    await aliceClient.db.waitForFirstSync();
    await bobClient.db.waitForFirstSync();
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  it("two members' replicas hold exactly what the rules grant, cross-checked against RLS", async () => {
    await expectReplicaMatchesRls(aliceClient, alice);
    await expectReplicaMatchesRls(bobClient, bob);
    expect(await replicaIds(aliceClient, 'profiles')).toEqual([alice]);
    // Alice sees her match and the member who liked her; never the unrelated member.
    expect((await replicaIds(aliceClient, 'public_profiles')).sort()).toEqual([alice, bob, carol].sort());
    expect(await replicaIds(bobClient, 'public_profiles')).not.toContain(dave);
    // Alice's private address is on her replica and nowhere in Bob's, not even in the raw op log.
    expect(await aliceClient.db.get('select street_address from profiles')).toEqual({
      street_address: 'Secret Street 1',
    });
    const leaked = await bobClient.db.get<{ n: number }>(
      "select (select count(*) from ps_oplog where data like '%Secret Street%') + (select count(*) from ps_untyped where data like '%Secret Street%') as n",
    );
    expect(leaked.n).toBe(0);
  });

  it('a message written offline-first is uploaded, reaches the other member and comes back with server values', async () => {
    const id = crypto.randomUUID();
    await aliceClient.db.execute(
      'insert into messages (id, conversation_id, sender_id, recipient_id, content) values (?, ?, ?, ?, ?)',
      [id, conversationId, alice, bob, 'sent from the replica'],
    );
    await waitFor(
      () => bobClient.db.getAll<{ content: string }>('select content from messages where id = ?', [id]),
      (rows) => rows[0]?.content === 'sent from the replica',
    );
    // After the write checkpoint, Alice's row is the server's: created_at and status set by the database.
    const mine = await waitFor(
      () =>
        aliceClient.db.getAll<{ status: string; created_at: string | null }>(
          'select status, created_at from messages where id = ?',
          [id],
        ),
      (rows) => rows[0]?.created_at != null,
    );
    expect(mine[0]?.status).toBe('sent');
    expect(await aliceClient.db.getAll('select * from ps_crud')).toEqual([]);
  });

  it('an unmatch removes the match, conversation and messages from both replicas; the rest equals RLS', async () => {
    await asActor(t.db, member(bob), (tx) =>
      tx.query(
        'delete from public.matches where user_id_1 = least($1::uuid, $2::uuid) and user_id_2 = greatest($1::uuid, $2::uuid)',
        [alice, bob],
      ),
    );
    for (const c of [aliceClient, bobClient])
      await waitFor(
        () => replicaIds(c, 'matches'),
        (v) => v.length === 0,
      );
    // The history stays readable through the REST API (RLS), but leaves the replicas with the match.
    for (const c of [aliceClient, bobClient])
      for (const table of ['conversations', 'messages'])
        await waitFor(
          () => replicaIds(c, table),
          (v) => v.length === 0,
        );
    expect(await rlsIds(alice, 'conversations')).toEqual([conversationId]);
    const stillEqual = rlsEqualTables.filter((n) => n !== 'conversations' && n !== 'messages');
    await expectReplicaMatchesRls(aliceClient, alice, stillEqual);
    await expectReplicaMatchesRls(bobClient, bob, stillEqual);
  });

  it('an edit queued on the device is not undone by a checkpoint carrying another change of the same row', async () => {
    // Her name saved on the device while the upload is slow; meanwhile the server changes the same row
    // (her presence's last_seen, a setting saved on another device): the checkpoint carrying that row holds
    // the server's old name and must wait until her write is uploaded and in the ops.
    let release = () => {};
    uploadGate = new Promise<void>((resolve) => (release = resolve));
    try {
      await aliceClient.db.execute('update profiles set name = ? where id = ?', ['Alice Local', alice]);
      await updateRow(t.db, 'profiles', 'id', alice, { city: 'Nantes' });
      const cityOnServer = () =>
        t.db.query<{ n: string }>(
          `select count(*)::text as n from heartsync_sync.ops where object_id = $1 and data like '%Nantes%'`,
          [alice],
        );
      // The server has the change in its ops (so the stream has it to send) before the replica is checked.
      await waitFor(cityOnServer, (r) => Number(r.rows[0]?.n) > 0, 10_000, 20);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await aliceClient.db.getAll('select name, city from profiles where id = ?', [alice])).toEqual([
        { name: 'Alice Local', city: 'Lyon' },
      ]);
    } finally {
      release();
      uploadGate = undefined;
    }
    await waitFor(
      () =>
        aliceClient.db.getAll<{ name: string; city: string }>(
          'select name, city from profiles where id = ?',
          [alice],
        ),
      (rows) => rows[0]?.city === 'Nantes',
      10_000,
      20,
    );
    expect(await aliceClient.db.getAll('select name, city from profiles where id = ?', [alice])).toEqual([
      { name: 'Alice Local', city: 'Nantes' },
    ]);
    const server = await t.db.query<{ name: string }>('select name from public.profiles where id = $1', [
      alice,
    ]);
    expect(server.rows[0]?.name).toBe('Alice Local');
    expect(await aliceClient.db.getAll('select * from ps_crud')).toEqual([]);
  });

  it('refuses a stream without a valid member token and a malformed request, changing nothing', async () => {
    const noToken = await fetch(`${t.url}/sync/stream`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(noToken.status).toBe(401);
    const anon = await fetch(`${t.url}/sync/stream`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json', authorization: `Token ${t.anonKey}` },
    });
    expect(anon.status).toBe(401);
    const bad = await fetch(`${t.url}/sync/stream`, {
      method: 'POST',
      body: JSON.stringify({ buckets: [{ name: 'member["x"]', after: '1; drop table x' }] }),
      headers: { 'content-type': 'application/json', authorization: `Token ${await token(alice)}` },
    });
    expect(bad.status).toBe(400);
    const wc = await fetch(`${t.url}/write-checkpoint2.json?client_id=x`, {
      headers: { authorization: 'Token nope' },
    });
    expect(wc.status).toBe(401);
  });
});
