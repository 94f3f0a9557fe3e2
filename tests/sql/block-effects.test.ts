// What a block or a report does to the pair's rows (0050): their match and their likes and skips go, the
// conversation keeps its history without a match, other members' rows stay as they were, and a later like
// is refused. Also the matches.conversation_id link the sync rules key the conversation bucket on.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, asActor, member } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { addInteraction, createMember, expectSqlError, makeMatch } from './support/members.ts';

type Action = 'block' | 'report';

describe.each(getDatabaseKinds())('block and report effects on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const like = (from: string, to: string) =>
    asActor(db, member(from), (tx) =>
      tx.query(
        `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like')`,
        [from, to],
      ),
    );
  const act = (action: Action, from: string, to: string) =>
    asActor(db, member(from), (tx) =>
      action === 'block'
        ? tx.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [from, to])
        : tx.query(
            `insert into public.reports (reporter_id, reported_id, category, details) values ($1, $2, 'spam', 'x')`,
            [from, to],
          ),
    );
  const sendMessage = (conversationId: string, from: string, to: string) =>
    asActor(db, member(from), (tx) =>
      tx.query(
        `insert into public.messages (id, conversation_id, sender_id, recipient_id, content) values ($1, $2, $3, $4, 'hi')`,
        [crypto.randomUUID(), conversationId, from, to],
      ),
    );

  /** Every row of the tables a block may touch, as JSON text, so any other change shows up. */
  async function snapshotRows(): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const table of [
      'matches',
      'user_interactions',
      'conversations',
      'messages',
      'blocked_users',
      'reports',
    ]) {
      const r = await db.query<{ row: string }>(`select to_jsonb(t)::text as row from public.${table} t`);
      out[table] = r.rows.map((x) => x.row).sort();
    }
    return out;
  }
  const involvesPair = (row: string, a: string, b: string) => row.includes(a) && row.includes(b);

  it.each([
    ['block', 'the blocker'],
    ['block', 'the blocked member'],
    ['report', 'the reporter'],
    ['report', 'the reported member'],
  ] as const)(
    'a %s deletes the match and likes of that pair only, whoever liked first (%s)',
    async (action, likedFirst) => {
      const a = await createMember(db);
      const b = await createMember(db);
      const c = await createMember(db);
      const d = await createMember(db);
      if (likedFirst === 'the blocker' || likedFirst === 'the reporter') {
        await like(a, b);
        await like(b, a);
      } else {
        await like(b, a);
        await like(a, b);
      }
      const pair = await db.query<{ id: string; conversation_id: string }>(
        'select id, conversation_id from public.matches where user_id_1 = least($1::uuid, $2::uuid) and user_id_2 = greatest($1::uuid, $2::uuid)',
        [a, b],
      );
      const conversationId = pair.rows[0]?.conversation_id ?? '';
      expect(conversationId).not.toBe('');
      await sendMessage(conversationId, a, b);
      // Rows of other pairs, including both members of the hidden pair with third members.
      const other = await makeMatch(db, a, c);
      await sendMessage(other.conversationId, c, a);
      await like(c, b);
      await addInteraction(db, b, d, 'skip');
      await like(d, a);

      const before = await snapshotRows();
      await act(action, a, b);
      const after = await snapshotRows();

      const pairMatches = await db.query(
        'select 1 from public.matches where user_id_1 = least($1::uuid, $2::uuid) and user_id_2 = greatest($1::uuid, $2::uuid)',
        [a, b],
      );
      expect(pairMatches.rows).toEqual([]);
      const pairLikes = await db.query(
        'select 1 from public.user_interactions where (user_id = $1 and target_id = $2) or (user_id = $2 and target_id = $1)',
        [a, b],
      );
      expect(pairLikes.rows).toEqual([]);
      // The conversation and its message stay on the server without a match, as after an unmatch.
      const conversation = await db.query<{ match_id: string | null }>(
        'select match_id from public.conversations where id = $1',
        [conversationId],
      );
      expect(conversation.rows).toEqual([{ match_id: null }]);
      const messages = await db.query('select 1 from public.messages where conversation_id = $1', [
        conversationId,
      ]);
      expect(messages.rows).toHaveLength(1);

      // Nothing else changed: every row not of this pair is identical, and the only new row is the block or report.
      for (const table of ['matches', 'user_interactions'] as const) {
        expect(after[table]).toEqual(before[table]?.filter((r) => !involvesPair(r, a, b)));
      }
      expect(after['messages']).toEqual(before['messages']);
      const changedConversations = (after['conversations'] ?? []).filter(
        (r) => !(before['conversations'] ?? []).includes(r),
      );
      expect(changedConversations).toHaveLength(1);
      expect(changedConversations[0]).toContain(conversationId);
      const newTable = action === 'block' ? 'blocked_users' : 'reports';
      expect((after[newTable] ?? []).length).toBe((before[newTable] ?? []).length + 1);

      // A later like or skip in either direction is refused, to members and to the service role alike.
      await expectSqlError(like(a, b), '42501');
      await expectSqlError(like(b, a), '42501');
      await expectSqlError(addInteraction(db, a, b), '42501');
      await expectSqlError(addInteraction(db, b, a, 'skip'), '42501');
      const rematched = await db.query(
        'select 1 from public.matches where user_id_1 = least($1::uuid, $2::uuid) and user_id_2 = greatest($1::uuid, $2::uuid)',
        [a, b],
      );
      expect(rematched.rows).toEqual([]);
      // Messaging that conversation is refused to both.
      await expectSqlError(sendMessage(conversationId, a, b), '42501');
      await expectSqlError(sendMessage(conversationId, b, a), '42501');
    },
  );

  it('a refused block or report (not as oneself) changes nothing', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    const mallory = await createMember(db);
    await makeMatch(db, a, b);
    const before = await snapshotRows();
    await expectSqlError(
      asActor(db, member(mallory), (tx) =>
        tx.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [a, b]),
      ),
      '42501',
    );
    await expectSqlError(
      asActor(db, member(mallory), (tx) =>
        tx.query(`insert into public.reports (reporter_id, reported_id, category) values ($1, $2, 'spam')`, [
          a,
          b,
        ]),
      ),
      '42501',
    );
    // A member cannot run the clean-up function directly either.
    await expectSqlError(
      asActor(db, member(a), (tx) => tx.query('select public.end_hidden_pair()')),
      '42501',
    );
    expect(await snapshotRows()).toEqual(before);
  });

  it('each match names its conversation, also after an unmatch and a new mutual like', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    const first = await makeMatch(db, a, b);
    const linked = async () =>
      (
        await db.query<{ id: string; conversation_id: string | null }>(
          'select id, conversation_id from public.matches where user_id_1 = least($1::uuid, $2::uuid) and user_id_2 = greatest($1::uuid, $2::uuid)',
          [a, b],
        )
      ).rows;
    expect(await linked()).toEqual([{ id: first.matchId, conversation_id: first.conversationId }]);
    await asActor(db, member(a), (tx) =>
      tx.query('delete from public.matches where id = $1', [first.matchId]),
    );
    expect(await linked()).toEqual([]);
    // Likes survive an unmatch, so a rematch needs them gone first (as the operator would do).
    await db.query(
      'delete from public.user_interactions where (user_id = $1 and target_id = $2) or (user_id = $2 and target_id = $1)',
      [a, b],
    );
    await like(a, b);
    await like(b, a);
    const again = await linked();
    expect(again).toHaveLength(1);
    expect(again[0]?.id).not.toBe(first.matchId);
    // The old conversation comes back with the new match, keeping its history.
    expect(again[0]?.conversation_id).toBe(first.conversationId);
  });

  it("lists a blocker's own blocks by first name, newest first; unblocking shows the member again", async () => {
    const a = await createMember(db, { name: 'Ada Blocker' });
    const b = await createMember(db, { name: 'Ben Blocked' });
    const c = await createMember(db, { name: 'Cy Also' });
    const d = await createMember(db);
    await act('block', a, b);
    await act('block', a, c);
    await act('block', d, a);
    await db.query(
      `update public.blocked_users set created_at = now() - interval '1 day' where blocked_id = $1`,
      [b],
    );
    const listOf = (who: string) =>
      asActor(db, member(who), async (tx) => {
        const r = await tx.query<{ blocked_id: string; name: string | null; reported: boolean }>(
          'select blocked_id, name, reported from public.get_blocked_members()',
        );
        return r.rows;
      });
    // Names a blocked member's first name only, though their public profile is hidden from the blocker.
    expect(await listOf(a)).toEqual([
      { blocked_id: c, name: 'Cy', reported: false },
      { blocked_id: b, name: 'Ben', reported: false },
    ]);
    // A report of the blocker's own shows (the pair stays hidden after an unblock); one made on the blocker
    // by a blocked member never does.
    const e = await createMember(db, { name: 'Eve Reporter' });
    await act('block', a, e);
    await act('report', a, c);
    await act('report', e, a);
    expect((await listOf(a)).map((r) => [r.name, r.reported])).toEqual([
      ['Eve', false],
      ['Cy', true],
      ['Ben', false],
    ]);
    const hidden = await asActor(db, member(a), (tx) =>
      tx.query('select id from public.public_profiles where id = $1', [b]),
    );
    expect(hidden.rows).toEqual([]);
    // Who blocked a member is never theirs to see; a visitor may not call it at all.
    expect(await listOf(b)).toEqual([]);
    expect((await listOf(d)).map((r) => r.blocked_id)).toEqual([a]);
    await expectSqlError(
      asActor(db, anonymous, (tx) => tx.query('select * from public.get_blocked_members()')),
      '42501',
    );
    // Unblocking is the blocker's delete: the member is visible again and off the list.
    await asActor(db, member(a), (tx) =>
      tx.query('delete from public.blocked_users where blocker_id = $1 and blocked_id = $2', [a, b]),
    );
    expect((await listOf(a)).map((r) => r.blocked_id)).toEqual([e, c]);
    const back = await asActor(db, member(a), (tx) =>
      tx.query('select id from public.public_profiles where id = $1', [b]),
    );
    expect(back.rows).toHaveLength(1);
    // The blocked member cannot lift a block made on them.
    await asActor(db, member(a), (tx) =>
      tx.query('delete from public.blocked_users where blocker_id = $1', [d]),
    );
    expect((await listOf(d)).map((r) => r.blocked_id)).toEqual([a]);
  });
});
