// Lovy's questions and answers in SQL (issue 16): a question's length, one answer per question written only
// by the service role for a question of the same member, and the claim the AI function makes before calling
// a model: the member's own question, not answered, not being answered, within the per-minute rate and the
// plan's daily number of answers. The usage log holds no text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asActor, member, serviceRole } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError } from './support/members.ts';

describe.each(getDatabaseKinds())('Lovy answers on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const ask = async (id: string, content = 'How do I write a good bio?') =>
    (
      await asActor(db, member(id), (tx) =>
        tx.query<{ id: string }>(
          `insert into public.lovy_messages (role, content) values ('user', $1) returning id`,
          [content],
        ),
      )
    ).rows[0]!.id;
  const claim = (question: string, owner: string) =>
    asActor(db, serviceRole, (tx) =>
      tx.query<{ id: string }>(`select public.claim_lovy_answer($1, $2, 'model', 'test-model') as id`, [
        question,
        owner,
      ]),
    );
  const answer = (owner: string, question: string | null, source: string | null = 'model') =>
    asActor(db, serviceRole, (tx) =>
      tx.query(
        `insert into public.lovy_messages (user_id, role, content, reply_to, source)
         values ($1, 'assistant', 'Lead with something you love doing.', $2, $3)`,
        [owner, question, source],
      ),
    );
  /** Pretends `n` answers were given `ago` (for the rate and the daily count). */
  const pastAnswers = (owner: string, n: number, ago: string) =>
    db.query(
      `insert into public.ai_usage (user_id, provider, outcome, created_at)
       select $1, 'coach', 'answered', now() - $2::interval from generate_series(1, $3)`,
      [owner, ago, n],
    );

  it('a question is at most 2000 characters; an answer names a question of the same member, once', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    await expectSqlError(ask(a, 'x'.repeat(2001)), '23514', 'lovy_question_too_long');
    const q = await ask(a, 'x'.repeat(2000));
    await expectSqlError(
      asActor(db, member(a), (tx) =>
        tx.query(
          `insert into public.lovy_messages (role, content, reply_to, source) values ('user', 'hi', $1, null)`,
          [q],
        ),
      ),
      '23514',
    );
    await expectSqlError(answer(b, q), '23503', 'lovy_question_not_found');
    await answer(a, q);
    await expectSqlError(answer(a, q), '23505');
    // A greeting answers no question; a member's row never claims to be an answer.
    await answer(a, null, null);
    await expectSqlError(
      asActor(db, member(a), (tx) =>
        tx.query(`insert into public.lovy_messages (role, content, reply_to) values ('assistant', 'x', $1)`, [
          q,
        ]),
      ),
      '42501',
    );
  });

  it('the claim: the member’s own unanswered question, once while it runs, again after a failure', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    const q = await ask(a);
    await expectSqlError(claim(q, b), 'P0002', 'lovy_question_not_found');
    const first = (await claim(q, a)).rows[0]!.id;
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    await expectSqlError(claim(q, a), 'PT409', 'lovy_answer_in_progress');
    await db.query(
      `update public.ai_usage set outcome = 'failed', error_type = 'NETWORK_ERROR' where id = $1`,
      [first],
    );
    expect((await claim(q, a)).rows[0]!.id).toBe(first);
    // A claim left running for over two minutes counts as abandoned.
    await db.query(`update public.ai_usage set created_at = now() - interval '3 minutes' where id = $1`, [
      first,
    ]);
    expect((await claim(q, a)).rows[0]!.id).toBe(first);
    await answer(a, q);
    await expectSqlError(claim(q, a), '23505', 'lovy_already_answered');
  });

  it('members cannot claim, nor write or change the usage log, and read only their own', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    const q = await ask(a);
    await expectSqlError(
      asActor(db, member(a), (tx) =>
        tx.query(`select public.claim_lovy_answer($1, $2, 'model', null)`, [q, a]),
      ),
      '42501',
    );
    await claim(q, a);
    await expectSqlError(
      asActor(db, member(a), (tx) =>
        tx.query(`insert into public.ai_usage (user_id, provider) values ($1, 'coach')`, [a]),
      ),
      '42501',
    );
    await expectSqlError(
      asActor(db, member(a), (tx) => tx.query(`update public.ai_usage set outcome = 'failed'`)),
      '42501',
    );
    const own = await asActor(db, member(a), (tx) =>
      tx.query('select user_id, outcome from public.ai_usage'),
    );
    expect(own.rows).toEqual([{ user_id: a, outcome: 'started' }]);
    const other = await asActor(db, member(b), (tx) => tx.query('select * from public.ai_usage'));
    expect(other.rows).toHaveLength(0);
    // Nothing in the log can hold a message's text.
    const columns = await db.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_schema = 'public' and table_name = 'ai_usage'`,
    );
    expect(columns.rows.map((c) => c.column_name)).not.toContain('content');
  });

  it('at most 6 answers a minute', async () => {
    const a = await createMember(db);
    await pastAnswers(a, 6, '10 seconds');
    await expectSqlError(claim(await ask(a), a), 'P0001', 'lovy_rate_limited');
    await db.query(
      `update public.ai_usage set created_at = now() - interval '61 seconds' where user_id = $1`,
      [a],
    );
    await claim(await ask(a), a);
  });

  it('30 answers a day on the free plan, 300 on a paid one; failed ones do not count', async () => {
    const a = await createMember(db);
    await pastAnswers(a, 30, '2 hours');
    await db.query(
      `insert into public.ai_usage (user_id, provider, outcome, created_at)
       select $1, 'model', 'failed', now() - interval '2 hours' from generate_series(1, 5)`,
      [a],
    );
    await expectSqlError(claim(await ask(a), a), 'P0001', 'lovy_daily_limit');
    await db.query(
      `insert into public.subscriptions (user_id, plan_id, billing_cycle, status, current_period_end, stripe_customer_id)
       values ($1, 'premium', 'monthly', 'active', now() + interval '30 days', 'cus_lovy')`,
      [a],
    );
    await claim(await ask(a), a);
    await pastAnswers(a, 270, '3 hours');
    await expectSqlError(claim(await ask(a), a), 'P0001', 'lovy_daily_limit');
    // Yesterday's answers no longer count.
    await db.query(`update public.ai_usage set created_at = now() - interval '25 hours' where user_id = $1`, [
      a,
    ]);
    await claim(await ask(a), a);
  });
  it('speech: only the member’s own answer, by the service role, at most 10 a minute', async () => {
    const me = await createMember(db);
    const other = await createMember(db);
    const question = await ask(me);
    await answer(me, question);
    const { rows } = await db.query<{ id: string }>(
      `select id from public.lovy_messages where reply_to = $1`,
      [question],
    );
    const answerId = rows[0]!.id;
    const speak = (owner: string, id: string) =>
      asActor(db, serviceRole, (tx) =>
        tx.query<{ content: string; usage_id: string }>(
          `select * from public.claim_lovy_speech($1, $2, 'test-tts')`,
          [id, owner],
        ),
      );
    await expectSqlError(
      asActor(db, member(me), (tx) =>
        tx.query(`select * from public.claim_lovy_speech($1, $2, 'x')`, [answerId, me]),
      ),
      '42501',
    );
    await expectSqlError(speak(other, answerId), 'P0002');
    await expectSqlError(speak(me, question), 'P0002');
    const first = await speak(me, answerId);
    expect(first.rows[0]!.content).toBe('Lead with something you love doing.');
    for (let i = 1; i < 10; i++) await speak(me, answerId);
    await expectSqlError(speak(me, answerId), 'P0001');
    // Speech counts apart from answers: the member can still ask.
    await claim(await ask(me), me);
  });
});
