// Two players offline create the same game round and each answer it; after reconnecting there is one
// round with both answers on the server and in both replicas, and no upload was refused.
import { Schema, Table, column, type AbstractPowerSyncDatabase } from '@powersync/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseError } from '../../server/db/database.ts';
import { asActor, member } from '../support/as-role.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { createMember, makeMatch } from '../sql/support/members.ts';
import { signMemberToken } from './realtime-support.ts';
import { openSyncClient, waitFor, type SyncClient } from './sync-support.ts';

const schema = new Schema({
  game_sessions: new Table({ player1_id: column.text, player2_id: column.text, status: column.text }),
  game_rounds: new Table({
    session_id: column.text,
    round_number: column.integer,
    question: column.text,
    player1_choice: column.text,
    player2_choice: column.text,
  }),
});

describe.each(getDatabaseKinds())('offline game rounds on %s', (kind) => {
  let t: TestServer;
  let alice: string;
  let bob: string;
  let sessionId: string;
  const clients: SyncClient[] = [];
  const refused: string[] = [];

  /** The connector's upload: a put inserts (23505 = already there, applied), a patch updates only its columns. */
  const uploadAs = (sub: string) => async (db: AbstractPowerSyncDatabase) => {
    const tx = await db.getNextCrudTransaction();
    if (!tx) return;
    for (const op of tx.crud) {
      if (op.table !== 'game_rounds') throw new Error(`unexpected upload to ${op.table}`);
      const d = op.opData ?? {};
      try {
        await asActor(t.db, member(sub), async (q) => {
          if (op.op === 'PUT') {
            await q.query(
              'insert into public.game_rounds (id, session_id, round_number, question) values ($1, $2, $3, $4::jsonb)',
              [op.id, d['session_id'], d['round_number'], d['question']],
            );
          } else if (op.op === 'PATCH') {
            const cols = Object.keys(d).filter((c) => c === 'player1_choice' || c === 'player2_choice');
            if (cols.length === 0) return;
            await q.query(
              `update public.game_rounds set ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')} where id = $1`,
              [op.id, ...cols.map((c) => d[c])],
            );
          }
        });
      } catch (e) {
        if (!(isDatabaseError(e) && e.code === '23505')) {
          refused.push(`${op.op} ${(e as Error).message}`);
        }
      }
    }
    await tx.complete();
  };

  const token = (sub: string) => signMemberToken(t, sub);

  beforeAll(async () => {
    t = await startTestServer(kind);
    alice = await createMember(t.db);
    bob = await createMember(t.db);
    await makeMatch(t.db, alice, bob);
    const [p1, p2] = alice < bob ? [alice, bob] : [bob, alice];
    alice = p1;
    bob = p2;
    sessionId = await asActor(t.db, member(alice), async (q) => {
      const r = await q.query<{ id: string }>(
        `insert into public.game_sessions (player1_id, player2_id, game_type) values ($1, $2, 'this-or-that') returning id`,
        [alice, bob],
      );
      return r.rows[0]!.id;
    });
    await asActor(t.db, member(bob), (q) =>
      q.query(`update public.game_sessions set status = 'active' where id = $1`, [sessionId]),
    );
  });

  afterAll(async () => {
    for (const c of clients) await c.close();
    await t?.close();
  });

  it('one round with both answers after both players created and answered it offline', async () => {
    const a = await openSyncClient(t, schema, () => token(alice), uploadAs(alice));
    const b = await openSyncClient(t, schema, () => token(bob), uploadAs(bob));
    clients.push(a, b);
    for (const c of [a, b]) {
      await c.db.waitForFirstSync();
      await waitFor(
        () => c.db.getAll("select id from game_sessions where status = 'active'"),
        (r) => r.length === 1,
      );
      await c.db.disconnect();
    }
    // The id both devices derive from the natural key (session, round number).
    const { rows } = await t.db.query<{ id: string }>('select public.game_round_id($1, 1)::text as id', [
      sessionId,
    ]);
    const roundId = rows[0]!.id;
    const question = JSON.stringify({ text: 'Tea or coffee?', optionA: 'Tea', optionB: 'Coffee' });
    for (const [c, slot, answer] of [
      [a, 'player1_choice', 'Tea'],
      [b, 'player2_choice', 'Coffee'],
    ] as const) {
      await c.db.execute(
        'insert into game_rounds (id, session_id, round_number, question) values (?, ?, 1, ?)',
        [roundId, sessionId, question],
      );
      await c.db.execute(`update game_rounds set ${slot} = ? where id = ?`, [answer, roundId]);
    }
    await a.reconnect();
    await b.reconnect();
    for (const c of [a, b]) {
      await waitFor(
        () =>
          c.db.getAll<{ p1: string | null; p2: string | null }>(
            'select player1_choice as p1, player2_choice as p2 from game_rounds',
          ),
        (r) => r.length === 1 && r[0]?.p1 === 'Tea' && r[0]?.p2 === 'Coffee',
        20_000,
        20,
      );
      expect(await c.db.getAll('select * from ps_crud')).toEqual([]);
    }
    const server = await t.db.query<{ n: string; p1: string; p2: string }>(
      'select count(*) over () as n, player1_choice as p1, player2_choice as p2 from public.game_rounds where session_id = $1',
      [sessionId],
    );
    expect(server.rows).toEqual([{ n: '1', p1: 'Tea', p2: 'Coffee' }]);
    expect(refused).toEqual([]);
  });
});
