// Read receipts honour the recipient's read_receipts privacy setting (0040); messaging stays closed after a block.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asActor, member } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError, makeMatch, newId } from './support/members.ts';

describe.each(getDatabaseKinds())('message receipts on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  async function pairWithMessage() {
    const a = await createMember(db, { name: 'Ann' });
    const b = await createMember(db, { name: 'Bob' });
    const { conversationId } = await makeMatch(db, a, b);
    const id = newId();
    await asActor(db, member(a), (tx) =>
      tx.query(
        `insert into public.messages (id, conversation_id, sender_id, recipient_id, content, type)
         values ($1, $2, $3, $4, 'hello', 'text')`,
        [id, conversationId, a, b],
      ),
    );
    return { a, b, conversationId, id };
  }

  const markRead = (recipient: string, id: string) =>
    asActor(db, member(recipient), (tx) =>
      tx.query("update public.messages set status = 'read' where id = $1", [id]),
    );
  const getStatus = async (id: string) =>
    (
      await db.query<{ status: string; delivered_at: Date | null; read_at: Date | null }>(
        'select status, delivered_at, read_at from public.messages where id = $1',
        [id],
      )
    ).rows[0];

  it('a recipient with read receipts on marks a message read, with server times', async () => {
    const { b, id } = await pairWithMessage();
    await markRead(b, id);
    const row = await getStatus(id);
    expect(row?.status).toBe('read');
    expect(row?.read_at).not.toBeNull();
    expect(row?.delivered_at).not.toBeNull();
  });

  it('with read receipts off, "read" is stored as delivered and read_at stays empty', async () => {
    const { b, id } = await pairWithMessage();
    await asActor(db, member(b), (tx) =>
      tx.query('update public.profiles set read_receipts = false where id = $1', [b]),
    );
    await markRead(b, id);
    const row = await getStatus(id);
    expect(row?.status).toBe('delivered');
    expect(row?.read_at).toBeNull();
    expect(row?.delivered_at).not.toBeNull();
    // Turning receipts back on lets later reads show.
    await asActor(db, member(b), (tx) =>
      tx.query('update public.profiles set read_receipts = true where id = $1', [b]),
    );
    await markRead(b, id);
    expect((await getStatus(id))?.status).toBe('read');
  });

  it("the sender's own read_receipts setting does not hide the recipient's receipt", async () => {
    const { a, b, id } = await pairWithMessage();
    await asActor(db, member(a), (tx) =>
      tx.query('update public.profiles set read_receipts = false where id = $1', [a]),
    );
    await markRead(b, id);
    expect((await getStatus(id))?.status).toBe('read');
  });

  it('the sender cannot mark their own message read', async () => {
    const { a, id } = await pairWithMessage();
    const res = await markRead(a, id);
    expect(res.rowCount).toBe(0);
    expect((await getStatus(id))?.status).toBe('sent');
  });

  it('after a block neither side can send in the conversation', async () => {
    const { a, b, conversationId } = await pairWithMessage();
    await asActor(db, member(b), (tx) =>
      tx.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [b, a]),
    );
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      await expectSqlError(
        asActor(db, member(from), (tx) =>
          tx.query(
            `insert into public.messages (id, conversation_id, sender_id, recipient_id, content, type)
             values ($1, $2, $3, $4, 'still there?', 'text')`,
            [newId(), conversationId, from, to],
          ),
        ),
        '42501',
      );
    }
  });
});
