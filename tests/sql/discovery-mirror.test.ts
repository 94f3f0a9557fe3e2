// Each member's row carries a copy of their answers and stated preferences for discovery (migration 0145,
// decision 0117): the copy follows every write, members cannot write it, and two writers at once both land.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asActor, member } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError } from './support/members.ts';
import { openConnections, writeAsMemberHeld } from './support/overlapping.ts';

/** The packing the migration documents: question << 11 | answer << 8 | acceptable mask << 2 | importance. */
function pack(question: number, answer: number, acceptable: number[], importance: number): number {
  const mask = acceptable.reduce((m, a) => m | (1 << a), 0);
  return (question << 11) | (answer << 8) | (mask << 2) | importance;
}

interface Copy {
  discovery_answers: number[];
  discovery_accepts_genders: string[] | null;
  discovery_accepts_min_age: number | null;
  discovery_accepts_max_age: number | null;
  discovery_interests: string[];
}

describe.each(getDatabaseKinds())('the discovery copy on a member row, on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const copyOf = async (id: string): Promise<Copy> =>
    (
      await db.query<Copy>(
        `select discovery_answers, discovery_accepts_genders, discovery_accepts_min_age, discovery_accepts_max_age,
           discovery_interests
         from public.profiles where id = $1`,
        [id],
      )
    ).rows[0]!;

  it('follows the member answering, the operator correcting and removing an answer', async () => {
    const id = await createMember(db);
    expect((await copyOf(id)).discovery_answers).toEqual([]);
    await asActor(db, member(id), async (tx) => {
      await tx.query(
        `insert into public.profile_answers (user_id, question_id, answer, acceptable_answers, importance)
         values ($1, 2, 2, '{2,3}', 3), ($1, 1, 0, '{0}', 1)`,
        [id],
      );
    });
    // In question order, whatever order they were written in.
    expect((await copyOf(id)).discovery_answers).toEqual([pack(1, 0, [0], 1), pack(2, 2, [2, 3], 3)]);

    await db.query(
      `update public.profile_answers set answer = 3, acceptable_answers = '{0,1,2,3}', importance = 0
       where user_id = $1 and question_id = 2`,
      [id],
    );
    expect((await copyOf(id)).discovery_answers).toEqual([pack(1, 0, [0], 1), pack(2, 3, [0, 1, 2, 3], 0)]);

    await db.query('delete from public.profile_answers where user_id = $1 and question_id = 1', [id]);
    expect((await copyOf(id)).discovery_answers).toEqual([pack(2, 3, [0, 1, 2, 3], 0)]);
    // The copy is what the function that fills it reads from the table.
    const { rows } = await db.query<{ same: boolean }>(
      'select app_private.get_discovery_answers($1) = discovery_answers as same from public.profiles where id = $1',
      [id],
    );
    expect(rows[0]!.same).toBe(true);
  });

  it('follows stated preferences: stated, changed, withdrawn (all empty when none are stated)', async () => {
    const id = await createMember(db);
    expect(await copyOf(id)).toMatchObject({
      discovery_accepts_genders: null,
      discovery_accepts_min_age: null,
      discovery_accepts_max_age: null,
    });
    await asActor(db, member(id), (tx) =>
      tx.query(
        `insert into public.match_preferences (user_id, min_age, max_age, genders) values ($1, 30, 40, '{woman}')`,
        [id],
      ),
    );
    expect(await copyOf(id)).toMatchObject({
      discovery_accepts_genders: ['woman'],
      discovery_accepts_min_age: 30,
      discovery_accepts_max_age: 40,
    });
    await asActor(db, member(id), (tx) =>
      tx.query(`update public.match_preferences set genders = '{}', max_age = 99 where user_id = $1`, [id]),
    );
    expect(await copyOf(id)).toMatchObject({
      discovery_accepts_genders: [],
      discovery_accepts_min_age: 30,
      discovery_accepts_max_age: 99,
    });
    await db.query('delete from public.match_preferences where user_id = $1', [id]);
    expect(await copyOf(id)).toMatchObject({
      discovery_accepts_genders: null,
      discovery_accepts_min_age: null,
      discovery_accepts_max_age: null,
    });
  });

  it('keeps interests normalised as the compatibility score counts them', async () => {
    const id = await createMember(db, { profile: { interests: ['  Hiking', 'hiking', 'Chess ', ' '] } });
    expect((await copyOf(id)).discovery_interests).toEqual(['chess', 'hiking']);
    const { rows } = await db.query<{ same: boolean }>(
      'select public.normalize_interests(interests) = discovery_interests as same from public.profiles where id = $1',
      [id],
    );
    expect(rows[0]!.same).toBe(true);
  });

  it('cannot be written by the member, and an answer the member may not give changes nothing', async () => {
    const id = await createMember(db);
    for (const [column, value] of [
      ['discovery_answers', '{2048}'],
      ['discovery_accepts_min_age', '18'],
      ['discovery_accepts_genders', '{}'],
    ] as const) {
      await expectSqlError(
        asActor(db, member(id), (tx) =>
          tx.query(`update public.profiles set ${column} = $2 where id = $1`, [id, value]),
        ),
        '42501',
      );
    }
    await expectSqlError(
      asActor(db, member(id), (tx) =>
        tx.query(`update public.profiles set discovery_interests = '{x}' where id = $1`, [id]),
      ),
      // a generated column: nobody writes it
      '428C9',
    );
    // An answer outside 0-5 is refused, and the copy stays as it was.
    await expectSqlError(
      asActor(db, member(id), (tx) =>
        tx.query(
          `insert into public.profile_answers (user_id, question_id, answer, acceptable_answers) values ($1, 1, 9, '{0}')`,
          [id],
        ),
      ),
      '23514',
    );
    expect((await copyOf(id)).discovery_answers).toEqual([]);
    // Their own row still reads whole.
    const row = await asActor(db, member(id), (tx) =>
      tx.query('select * from public.profiles where id = $1', [id]),
    );
    expect(row.rows[0]).toHaveProperty('discovery_answers', []);
  });

  it('leaves with the member: deleting an account deletes the answers and preferences without an error', async () => {
    const id = await createMember(db, { preferences: { genders: ['man'] } });
    await db.query(
      `insert into public.profile_answers (user_id, question_id, answer, acceptable_answers) values ($1, 1, 1, '{1}')`,
      [id],
    );
    await db.query('delete from auth.users where id = $1', [id]);
    const { rows } = await db.query(
      `select 1 from public.profiles where id = $1
       union all select 1 from public.profile_answers where user_id = $1
       union all select 1 from public.match_preferences where user_id = $1`,
      [id],
    );
    expect(rows).toEqual([]);
  });
});

// PostgreSQL only: PGlite has a single connection, so nothing runs at the same time there.
const concurrentKinds = getDatabaseKinds().filter((k) => k === 'postgres');

describe.skipIf(concurrentKinds.length === 0)(
  'the discovery copy with two writers at once, on postgres',
  () => {
    let db: TestDatabase;
    let clients: pg.Client[] = [];
    beforeAll(async () => {
      db = await createTestDatabase('postgres');
      clients = await openConnections(db.url, 2);
    });
    afterAll(async () => {
      for (const c of clients) await c.end();
      await db?.destroy();
    });

    /** One answer in its own transaction as the member, held open a moment so the two overlap. */
    const answerAs = (client: pg.Client, id: string, question: number, holdMs: number) =>
      writeAsMemberHeld(
        client,
        id,
        `insert into public.profile_answers (user_id, question_id, answer, acceptable_answers) values ($1, $2, 1, '{1}')`,
        [id, question],
        holdMs,
      );

    it('two devices answering different questions at the same moment both reach the copy', async () => {
      for (let round = 0; round < 3; round++) {
        const id = await createMember(db);
        await Promise.all([answerAs(clients[0]!, id, 1, 300), answerAs(clients[1]!, id, 2, 0)]);
        const { rows } = await db.query<{ discovery_answers: number[]; fresh: number[] }>(
          'select discovery_answers, app_private.get_discovery_answers(id) as fresh from public.profiles where id = $1',
          [id],
        );
        expect(rows[0]!.fresh).toHaveLength(2);
        expect(rows[0]!.discovery_answers).toEqual(rows[0]!.fresh);
      }
    });
  },
);
