import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asActor, member } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError, makeMatch, newId } from './support/members.ts';

describe.each(getDatabaseKinds())('messages on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const send = (
    from: string,
    to: string,
    conversationId: string,
    content = 'hello',
    id = newId(),
    extra: { type?: string; metadata?: object } = {},
  ) =>
    asActor(db, member(from), (tx) =>
      tx.query<{ id: string; status: string; created_at: Date }>(
        `insert into public.messages (id, conversation_id, sender_id, recipient_id, content, type, metadata)
         values ($1, $2, $3, $4, $5, $6, $7) returning id, status, created_at`,
        [id, conversationId, from, to, content, extra.type ?? 'text', JSON.stringify(extra.metadata ?? {})],
      ),
    );

  async function pair() {
    const a = await createMember(db, { name: 'Ann' });
    const b = await createMember(db, { name: 'Bob' });
    const { matchId, conversationId } = await makeMatch(db, a, b);
    return { a, b, matchId, conversationId };
  }

  it('matched members exchange messages; the conversation records the last message time', async () => {
    const { a, b, conversationId } = await pair();
    await send(a, b, conversationId, 'hi Bob');
    await send(b, a, conversationId, 'hi Ann');
    const seen = await asActor(db, member(b), (tx) =>
      tx.query<{ content: string }>(
        'select content from public.messages where conversation_id = $1 order by created_at',
        [conversationId],
      ),
    );
    expect(seen.rows.map((r) => r.content)).toEqual(['hi Bob', 'hi Ann']);
    const c = await db.query<{ last_message_at: Date | null }>(
      'select last_message_at from public.conversations where id = $1',
      [conversationId],
    );
    expect(c.rows[0]?.last_message_at).not.toBeNull();
  });

  it('a message inserted without an id gets one from the server; a client-made id is kept', async () => {
    const { a, b, conversationId } = await pair();
    const made = await asActor(db, member(a), (tx) =>
      tx.query<{ id: string }>(
        `insert into public.messages (conversation_id, sender_id, recipient_id, content)
         values ($1, $2, $3, 'no id') returning id`,
        [conversationId, a, b],
      ),
    );
    expect(made.rows[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    const id = newId();
    expect((await send(a, b, conversationId, 'own id', id)).rows[0]?.id).toBe(id);
  });

  it('every table a member may insert into has a default id (or one set by trigger)', async () => {
    const { rows } = await db.query<{ table_name: string }>(
      `select c.table_name from information_schema.columns c
        join information_schema.table_privileges p
          on p.table_schema = c.table_schema and p.table_name = c.table_name
             and p.grantee = 'authenticated' and p.privilege_type = 'INSERT'
        where c.table_schema = 'public' and c.column_name = 'id' and c.column_default is null
        group by c.table_name order by c.table_name`,
    );
    // game_rounds: its id is derived from (session_id, round_number) by its insert trigger.
    expect(rows.map((r) => r.table_name).filter((t) => t !== 'game_rounds')).toEqual([]);
  });

  it('unread counts per conversation follow the recipient marking messages read', async () => {
    const { a, b, conversationId } = await pair();
    const first = await send(a, b, conversationId, 'one');
    await send(a, b, conversationId, 'two');
    const counts = () =>
      asActor(db, member(b), (tx) =>
        tx.query<{ conversation_id: string; unread: number }>(
          'select * from public.get_unread_message_counts()',
        ),
      ).then((r) => r.rows);
    expect(await counts()).toEqual([{ conversation_id: conversationId, unread: 2 }]);
    await asActor(db, member(b), (tx) =>
      tx.query(`update public.messages set status = 'read' where id = $1`, [first.rows[0]?.id]),
    );
    expect(await counts()).toEqual([{ conversation_id: conversationId, unread: 1 }]);
    const forSender = await asActor(db, member(a), (tx) =>
      tx.query('select * from public.get_unread_message_counts()'),
    );
    expect(forSender.rows).toEqual([]);
  });

  it('a retried upload of the same client id is a duplicate (23505), never a second message', async () => {
    const { a, b, conversationId } = await pair();
    const id = newId();
    await send(a, b, conversationId, 'once', id);
    await expectSqlError(send(a, b, conversationId, 'once', id), '23505');
    const n = await db.query<{ n: number }>(
      'select count(*)::int n from public.messages where conversation_id = $1',
      [conversationId],
    );
    expect(n.rows[0]?.n).toBe(1);
  });

  it("outsiders cannot read or write in a conversation, nor send in someone else's name", async () => {
    const { a, b, conversationId } = await pair();
    const stranger = await createMember(db);
    await send(a, b, conversationId, 'private');
    const r = await asActor(db, member(stranger), (tx) =>
      tx.query('select * from public.messages where conversation_id = $1', [conversationId]),
    );
    expect(r.rows).toEqual([]);
    await expectSqlError(send(stranger, b, conversationId), '42501');
    // Writing as a participant while signed in as someone else.
    await expectSqlError(
      asActor(db, member(stranger), (tx) =>
        tx.query(
          `insert into public.messages (id, conversation_id, sender_id, recipient_id, content) values ($1, $2, $3, $4, 'x')`,
          [newId(), conversationId, a, b],
        ),
      ),
      '42501',
    );
    // A participant addressing a third member through the conversation.
    await expectSqlError(send(a, stranger, conversationId), '42501');
  });

  it('no messages between members who never matched, even with a conversation id of their own making', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    await expectSqlError(send(a, b, newId()), '42501');
  });

  it('a block ends messaging both ways and hides the history from both', async () => {
    const { a, b, conversationId } = await pair();
    await send(a, b, conversationId, 'before');
    await db.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [b, a]);
    await expectSqlError(send(a, b, conversationId), '42501');
    await expectSqlError(send(b, a, conversationId), '42501');
    for (const who of [a, b]) {
      const r = await asActor(db, member(who), (tx) => tx.query('select * from public.messages'));
      expect(r.rows).toEqual([]);
    }
  });

  it('an unmatch ends messaging', async () => {
    const { a, b, conversationId, matchId } = await pair();
    await db.query('delete from public.matches where id = $1', [matchId]);
    await expectSqlError(send(a, b, conversationId), '42501');
  });

  it("only the recipient moves status forward; timestamps are the server's; content is never editable", async () => {
    const { a, b, conversationId } = await pair();
    const sent = await send(a, b, conversationId, 'status please');
    const id = sent.rows[0]?.id;
    expect(sent.rows[0]?.status).toBe('sent');
    const bySender = await asActor(db, member(a), (tx) =>
      tx.query(`update public.messages set status = 'read' where id = $1 returning id`, [id]),
    );
    expect(bySender.rows).toEqual([]);
    await expectSqlError(
      asActor(db, member(b), (tx) =>
        tx.query(`update public.messages set content = 'edited' where id = $1`, [id]),
      ),
      '42501',
    );
    await asActor(db, member(b), (tx) =>
      tx.query(`update public.messages set status = 'read', read_at = '2000-01-01' where id = $1`, [id]),
    );
    await asActor(db, member(b), (tx) =>
      tx.query(`update public.messages set status = 'delivered' where id = $1`, [id]),
    );
    const r = await db.query<{ status: string; read_at: Date; delivered_at: Date }>(
      'select status, read_at, delivered_at from public.messages where id = $1',
      [id],
    );
    expect(r.rows[0]?.status).toBe('read');
    expect(r.rows[0]?.read_at.getFullYear()).toBeGreaterThan(2000);
    expect(r.rows[0]?.delivered_at).not.toBeNull();
    await expectSqlError(
      asActor(db, member(b), (tx) =>
        tx.query(`update public.messages set status = 'seen' where id = $1`, [id]),
      ),
      '23514',
    );
  });

  it('a message cannot arrive pre-read or backdated', async () => {
    const { a, b, conversationId } = await pair();
    // The server resets status and timestamps whatever the client sends.
    const pre = await asActor(db, member(a), (tx) =>
      tx.query<{ status: string; read_at: Date | null }>(
        `insert into public.messages (id, conversation_id, sender_id, recipient_id, content, status, read_at)
         values ($1, $2, $3, $4, 'x', 'read', now()) returning status, read_at`,
        [newId(), conversationId, a, b],
      ),
    ).catch((e: unknown) => e);
    expect(pre).toMatchObject({ rows: [{ status: 'sent', read_at: null }] });
    const r = await asActor(db, member(a), (tx) =>
      tx.query<{ recent: boolean }>(
        `insert into public.messages (id, conversation_id, sender_id, recipient_id, content, created_at)
         values ($1, $2, $3, $4, 'x', '2001-01-01') returning created_at > now() - interval '1 minute' recent`,
        [newId(), conversationId, a, b],
      ),
    );
    expect(r.rows[0]?.recent).toBe(true);
  });

  it('call messages carry their type and metadata; the recipient is notified of content messages only', async () => {
    const { a, b, conversationId } = await pair();
    await send(a, b, conversationId, 'x'.repeat(80));
    await send(a, b, conversationId, '', newId(), {
      type: 'video_call_ring',
      metadata: { callId: 'c1', callType: 'video', callerName: 'Ann' },
    });
    const n = await db.query<{ title: string; body: string }>(
      `select title, body from public.notifications where user_id = $1 and type = 'message'`,
      [b],
    );
    expect(n.rows).toEqual([{ title: 'New message from Ann', body: `${'x'.repeat(50)}...` }]);
  });

  it('a burst beyond the per-minute limit is refused with message_rate_limited', async () => {
    const { a, b, conversationId } = await pair();
    const limit =
      (await db.query<{ n: number }>('select public.get_message_burst_limit() n')).rows[0]?.n ?? 0;
    for (let i = 0; i < limit; i++) await send(a, b, conversationId, `m${i}`);
    await expectSqlError(send(a, b, conversationId, 'one too many'), 'P0001', 'message_rate_limited');
    // The other member is not affected.
    await send(b, a, conversationId, 'still fine');
  });

  it('opening too many new conversations in a day is refused with new_conversation_rate_limited', async () => {
    const opener = await createMember(db);
    const limit =
      (await db.query<{ n: number }>('select public.get_new_conversation_limit() n')).rows[0]?.n ?? 0;
    const conversations: { other: string; conversationId: string }[] = [];
    for (let i = 0; i <= limit; i++) {
      const other = await createMember(db);
      conversations.push({ other, ...(await makeMatch(db, opener, other)) });
    }
    for (const [i, c] of conversations.slice(0, limit).entries()) {
      await send(opener, c.other, c.conversationId, `hello ${i}`);
      // Spread them over time so the burst limit is not what stops us.
      await db.query(
        `update public.messages set created_at = now() - interval '2 minutes' where conversation_id = $1`,
        [c.conversationId],
      );
    }
    const last = conversations[limit];
    if (!last) throw new Error('missing conversation');
    await expectSqlError(
      send(opener, last.other, last.conversationId),
      'P0001',
      'new_conversation_rate_limited',
    );
    // Replying within an already opened conversation is still fine.
    const first = conversations[0];
    if (!first) throw new Error('missing conversation');
    await send(opener, first.other, first.conversationId, 'follow-up');
  });
});
