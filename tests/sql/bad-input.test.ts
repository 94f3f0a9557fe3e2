import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asActor, member, serviceRole, type Actor } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError, makeMatch, newId } from './support/members.ts';

interface Case {
  what: string;
  sql: string;
  params: (w: World) => unknown[];
  code: string;
  as?: 'member' | 'service';
}

interface World {
  me: string;
  other: string;
  conversationId: string;
}

const profileUpdate = (column: string, value: unknown): Case => ({
  what: `profiles.${column} = ${JSON.stringify(value)}`.slice(0, 80),
  sql: `update public.profiles set "${column}" = $2 where id = $1`,
  params: (w) => [w.me, value],
  code: '23514',
});

const cases: Case[] = [
  profileUpdate('gender', 'robot'),
  profileUpdate('looking_for', ['alien']),
  profileUpdate('relationship_goals', 'forever-ish'),
  profileUpdate('education_level', 'wizard'),
  profileUpdate('relationship_status', 'taken'),
  profileUpdate('height', 300),
  profileUpdate('height_unit', 'm'),
  profileUpdate('location_lat', 91),
  profileUpdate('location_lat', -90.5),
  profileUpdate('location_lng', 180.5),
  profileUpdate('location_lat', 'NaN'),
  // numeric(4,1) cannot hold infinity or 4-digit degrees: refused before the range check.
  { ...profileUpdate('location_lng', 'Infinity'), code: '22003' },
  { ...profileUpdate('location_lat', 1000), code: '22003' },
  profileUpdate('birthday', '1850-01-01'),
  profileUpdate('bio', 'x'.repeat(2001)),
  profileUpdate(
    'interests',
    Array.from({ length: 31 }, (_, i) => `i${i}`),
  ),
  profileUpdate('interests', ['x'.repeat(41)]),
  profileUpdate('interests', ['']),
  profileUpdate(
    'photos',
    Array.from({ length: 7 }, (_, i) => `p${i}.jpg`),
  ),
  profileUpdate('zip_code', '1'.repeat(21)),
  {
    what: 'a latitude without a longitude',
    sql: 'update public.profiles set location_lat = 10, location_lng = null where id = $1',
    params: (w) => [w.me],
    code: '23514',
  },
  {
    what: 'a latitude that is not a number',
    sql: 'update public.profiles set location_lat = $2 where id = $1',
    params: (w) => [w.me, 'north'],
    code: '22P02',
  },
  {
    what: 'a birthday that is not a date',
    sql: 'update public.profiles set birthday = $2 where id = $1',
    params: (w) => [w.me, 'yesterday-ish'],
    code: '22007',
  },
  {
    what: 'a NUL character in a bio',
    sql: 'update public.profiles set bio = $2 where id = $1',
    params: (w) => [w.me, 'a\u0000b'],
    code: '22021',
  },
  {
    what: 'preferences: minimum age under 18',
    sql: 'insert into public.match_preferences (user_id, min_age) values ($1, 17)',
    params: (w) => [w.me],
    code: '23514',
  },
  {
    what: 'preferences: minimum above maximum',
    sql: 'insert into public.match_preferences (user_id, min_age, max_age) values ($1, 40, 30)',
    params: (w) => [w.me],
    code: '23514',
  },
  {
    what: 'preferences: unknown gender',
    sql: `insert into public.match_preferences (user_id, genders) values ($1, '{robot}')`,
    params: (w) => [w.me],
    code: '23514',
  },
  {
    what: 'preferences: unknown distance band',
    sql: `insert into public.match_preferences (user_id, max_distance_band) values ($1, 'close')`,
    params: (w) => [w.me],
    code: '23514',
  },
  {
    what: 'answer: option beyond the question',
    sql: 'insert into public.profile_answers (user_id, question_id, answer, acceptable_answers) values ($1, 3, 4, $2)',
    params: (w) => [w.me, [0]],
    code: '23514',
  },
  {
    what: 'answer: acceptable option beyond the question',
    sql: 'insert into public.profile_answers (user_id, question_id, answer, acceptable_answers) values ($1, 3, 0, $2)',
    params: (w) => [w.me, [0, 5]],
    code: '23514',
  },
  {
    what: 'answer: no acceptable answer',
    sql: 'insert into public.profile_answers (user_id, question_id, answer, acceptable_answers) values ($1, 1, 0, $2)',
    params: (w) => [w.me, []],
    code: '23514',
  },
  {
    what: 'answer: importance 5',
    sql: 'insert into public.profile_answers (user_id, question_id, answer, acceptable_answers, importance) values ($1, 1, 0, $2, 5)',
    params: (w) => [w.me, [0]],
    code: '23514',
  },
  {
    what: 'answer: unknown question',
    sql: 'insert into public.profile_answers (user_id, question_id, answer, acceptable_answers) values ($1, 9999, 0, $2)',
    params: (w) => [w.me, [0]],
    code: '23503',
  },
  {
    what: 'interaction: unknown type',
    sql: `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'superlike')`,
    params: (w) => [w.me, w.other],
    code: '23514',
  },
  {
    what: 'interaction: liking oneself',
    sql: `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $1, 'like')`,
    params: (w) => [w.me],
    code: '23514',
  },
  {
    what: 'interaction: unknown member',
    sql: `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like')`,
    params: (w) => [w.me, newId()],
    code: '23503',
  },
  {
    what: 'interaction: malformed id',
    sql: `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like')`,
    params: (w) => [w.me, 'not-a-uuid'],
    code: '22P02',
  },
  {
    what: 'block: oneself',
    sql: 'insert into public.blocked_users (blocker_id, blocked_id) values ($1, $1)',
    params: (w) => [w.me],
    code: '23514',
  },
  {
    what: 'block: overlong reason',
    sql: 'insert into public.blocked_users (blocker_id, blocked_id, reason) values ($1, $2, $3)',
    params: (w) => [w.me, w.other, 'r'.repeat(501)],
    code: '23514',
  },
  {
    what: 'report: unknown category',
    sql: `insert into public.reports (reporter_id, reported_id, category) values ($1, $2, 'rude')`,
    params: (w) => [w.me, w.other],
    code: '23514',
  },
  {
    what: 'report: oneself',
    sql: `insert into public.reports (reporter_id, reported_id, category) values ($1, $1, 'spam')`,
    params: (w) => [w.me],
    code: '23514',
  },
  {
    what: 'report: overlong details',
    sql: `insert into public.reports (reporter_id, reported_id, category, details) values ($1, $2, 'other', $3)`,
    params: (w) => [w.me, w.other, 'd'.repeat(2001)],
    code: '23514',
  },
  {
    what: 'message: unknown type',
    sql: `insert into public.messages (id, conversation_id, sender_id, recipient_id, content, type) values ($1, $2, $3, $4, 'x', 'sticker')`,
    params: (w) => [newId(), w.conversationId, w.me, w.other],
    code: '23514',
  },
  {
    what: 'message: blank text',
    sql: `insert into public.messages (id, conversation_id, sender_id, recipient_id, content) values ($1, $2, $3, $4, '   ')`,
    params: (w) => [newId(), w.conversationId, w.me, w.other],
    code: '23514',
  },
  {
    what: 'message: overlong text',
    sql: `insert into public.messages (id, conversation_id, sender_id, recipient_id, content) values ($1, $2, $3, $4, $5)`,
    params: (w) => [newId(), w.conversationId, w.me, w.other, 'm'.repeat(4001)],
    code: '23514',
  },
  {
    what: 'message: metadata not an object',
    sql: `insert into public.messages (id, conversation_id, sender_id, recipient_id, content, metadata) values ($1, $2, $3, $4, 'x', '[1]')`,
    params: (w) => [newId(), w.conversationId, w.me, w.other],
    code: '23514',
  },
  {
    // A message without an id gets one from the server (0111); a null id is still refused.
    what: 'message: null id',
    sql: `insert into public.messages (id, conversation_id, sender_id, recipient_id, content) values (null, $1, $2, $3, 'x')`,
    params: (w) => [w.conversationId, w.me, w.other],
    code: '23502',
  },
  {
    what: 'RPC: malformed page size',
    sql: 'select * from public.get_received_likes($1, 0)',
    params: () => ['twenty'],
    code: '22P02',
  },
  {
    what: 'notification: external link',
    sql: `insert into public.notifications (user_id, type, title, link) values ($1, 'x', 't', 'https://evil.test')`,
    params: (w) => [w.me],
    code: '23514',
    as: 'service',
  },
  {
    what: 'notification: protocol-relative link',
    sql: `insert into public.notifications (user_id, type, title, link) values ($1, 'x', 't', '//evil.test')`,
    params: (w) => [w.me],
    code: '23514',
    as: 'service',
  },
  {
    what: 'deletion: unknown status',
    sql: `insert into public.account_deletion_requests (user_id, status) values ($1, 'maybe')`,
    params: (w) => [w.me],
    code: '23514',
    as: 'service',
  },
  {
    what: 'security event: bad name',
    sql: `insert into public.security_events (event) values ('DROP TABLE')`,
    params: () => [],
    code: '23514',
    as: 'service',
  },
];

describe.each(getDatabaseKinds())('bad input on %s', (kind) => {
  let db: TestDatabase;
  let world: World;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    const me = await createMember(db);
    const other = await createMember(db);
    const { conversationId } = await makeMatch(db, me, other);
    world = { me, other, conversationId };
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it.each(cases)('refuses $what with $code', async (c) => {
    const actor: Actor = c.as === 'service' ? serviceRole : member(world.me);
    await expectSqlError(
      asActor(db, actor, (tx) => tx.query(c.sql, c.params(world))),
      c.code,
    );
  });

  it('a refused write changes nothing', async () => {
    const before = await db.query('select * from public.profiles where id = $1', [world.me]);
    await expectSqlError(
      asActor(db, member(world.me), (tx) =>
        tx.query(`update public.profiles set bio = 'ok', gender = 'robot' where id = $1`, [world.me]),
      ),
      '23514',
    );
    const after = await db.query('select * from public.profiles where id = $1', [world.me]);
    expect(after.rows).toEqual(before.rows);
  });
});
