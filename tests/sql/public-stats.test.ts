import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, asActor, member } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember } from './support/members.ts';

describe.each(getDatabaseKinds())('public stats on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const getStats = (actor = anonymous) =>
    asActor(
      db,
      actor,
      async (tx) => (await tx.query<{ s: unknown }>('select public.get_public_stats() s')).rows[0]?.s,
    );

  /** As if the figures were counted over a minute ago. */
  const ageStats = () =>
    db.query(`update app_private.public_stats set counted_at = now() - interval '61 seconds'`);

  it('the landing figures are the real counts of members, matches and messages, readable anonymously', async () => {
    const before = (await getStats()) as { members: number; matches: number; messages: number };
    const a = await createMember(db);
    const b = await createMember(db);
    for (const [from, to] of [
      [a, b],
      [b, a],
    ] as const) {
      await asActor(db, member(from), (tx) =>
        tx.query(
          `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like')`,
          [from, to],
        ),
      );
    }
    await ageStats();
    const after = (await getStats(member(a))) as typeof before;
    expect(after).toEqual({
      members: before.members + 2,
      matches: before.matches + 1,
      messages: before.messages,
    });
  });

  it('counts at most once a minute: within it, the figures counted last', async () => {
    await ageStats();
    const counted = (await getStats()) as { members: number };
    await createMember(db);
    expect(await getStats()).toEqual(counted);
    await ageStats();
    expect(((await getStats()) as { members: number }).members).toBe(counted.members + 1);
    // Members cannot reach the kept figures themselves.
    await expect(
      asActor(db, anonymous, (tx) => tx.query('select * from app_private.public_stats')),
    ).rejects.toThrow();
  });

  it('reveals nothing but the three counts', async () => {
    expect(Object.keys((await getStats()) as object).sort()).toEqual(['matches', 'members', 'messages']);
  });
});
