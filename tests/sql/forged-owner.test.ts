// A member inserting a row in another member's name is refused as row-level security refuses it (42501),
// before any limit trigger can answer with the other member's state (their likes today, their plan's agent
// limit, their message rate) (issue 13).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { asActor, member } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError } from './support/members.ts';

const RLS = /row-level security/;

describe.each(getDatabaseKinds())('forged owners on %s', (kind) => {
  let db: TestDatabase;
  let victim: string;
  let prober: string;
  let other: string;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    victim = await createMember(db);
    prober = await createMember(db);
    other = await createMember(db);
    // The victim is at the free daily like limit: a limit answer would tell the prober so.
    const limit = (await db.query<{ n: number }>('select public.get_daily_like_limit() as n')).rows[0]!.n;
    for (let i = 0; i < limit; i++) {
      const target = await createMember(db);
      await db.query(
        "insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like')",
        [victim, target],
      );
    }
    // And holds as many agents as a free plan allows, so a limit answer would tell that too.
    await db.query("insert into public.ai_agents (user_id, name) values ($1, 'Mine')", [victim]);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const asProber = (sql: string, params: unknown[]) =>
    asActor(db, member(prober), (tx) => tx.query(sql, params));

  it('a like in the name of a member at the limit is refused as RLS, not as daily_like_limit_reached', async () => {
    await expectSqlError(
      asProber(
        "insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like')",
        [victim, other],
      ),
      '42501',
      RLS,
    );
  });

  it("an agent in a free member's name is refused as RLS, not as agent_limit_reached", async () => {
    await expectSqlError(
      asProber("insert into public.ai_agents (user_id, name) values ($1, 'Forged')", [victim]),
      '42501',
      RLS,
    );
  });

  it("a message in another member's name is refused as RLS, whatever their message rate", async () => {
    await expectSqlError(
      asProber(
        `insert into public.messages (id, conversation_id, sender_id, recipient_id, content)
         values ($1, $2, $3, $4, 'forged')`,
        [crypto.randomUUID(), crypto.randomUUID(), victim, other],
      ),
      '42501',
      RLS,
    );
  });

  it('answers, lovy messages, calls, games and choices in another name are refused as RLS', async () => {
    await expectSqlError(
      asProber('insert into public.profile_answers (user_id, question_id, answer) values ($1, 1, 0)', [
        victim,
      ]),
      '42501',
      RLS,
    );
    await expectSqlError(
      asProber("insert into public.lovy_messages (user_id, role, content) values ($1, 'user', 'x')", [
        victim,
      ]),
      '42501',
      RLS,
    );
    await expectSqlError(
      asProber('insert into public.video_calls (caller_id, recipient_id) values ($1, $2)', [victim, other]),
      '42501',
      RLS,
    );
  });
});
