// Private answers cannot be probed by flipping one's own answer and reading a card after each flip
// (issue 13): a question's answer is written at most twice in 24 hours, deletions included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asActor, member, serviceRole } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError } from './support/members.ts';

describe.each(getDatabaseKinds())('answer changes on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const answer = (id: string, question: number, value: number) =>
    asActor(db, member(id), (tx) =>
      tx.query(
        `insert into public.profile_answers (user_id, question_id, answer, acceptable_answers)
         values ($1, $2, $3, array[$3]::smallint[])
         on conflict (user_id, question_id) do update
           set answer = excluded.answer, acceptable_answers = excluded.acceptable_answers`,
        [id, question, value],
      ),
    );
  const stored = async (id: string, question: number) =>
    (
      await db.query<{ answer: number }>(
        'select answer from public.profile_answers where user_id = $1 and question_id = $2',
        [id, question],
      )
    ).rows[0]?.answer;

  it('an answer and one correction a day; a third write waits until tomorrow', async () => {
    const id = await createMember(db);
    await answer(id, 1, 0);
    await answer(id, 1, 1);
    await expectSqlError(answer(id, 1, 2), '23514', 'You can change this answer again tomorrow.');
    expect(await stored(id, 1)).toBe(1);
    // Other questions are their own.
    await answer(id, 2, 0);
    // Deleting and answering again counts too.
    await expectSqlError(
      asActor(db, member(id), (tx) =>
        tx.query('delete from public.profile_answers where user_id = $1 and question_id = 1', [id]),
      ),
      '23514',
    );
    // Saving the same answer again changes nothing and is free.
    await answer(id, 1, 1);
    await db.query(
      "update public.member_answer_changes set changed_at = now() - interval '25 hours' where user_id = $1",
      [id],
    );
    await answer(id, 1, 2);
    expect(await stored(id, 1)).toBe(2);
  });

  it('the operator is not limited', async () => {
    const id = await createMember(db);
    for (const v of [0, 1, 2, 0])
      await asActor(db, serviceRole, (tx) =>
        tx.query(
          `insert into public.profile_answers (user_id, question_id, answer, acceptable_answers)
           values ($1, 3, $2, array[$2]::smallint[])
           on conflict (user_id, question_id) do update set answer = excluded.answer`,
          [id, v],
        ),
      );
    expect(await stored(id, 3)).toBe(0);
  });
});
