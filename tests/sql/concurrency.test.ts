// PostgreSQL only: PGlite has a single connection, so nothing runs at the same time there.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember } from './support/members.ts';
import { openConnections, writeAsMemberHeld } from './support/overlapping.ts';

const kinds = getDatabaseKinds().filter((k) => k === 'postgres');

describe.skipIf(kinds.length === 0)('concurrent mutual likes on postgres', () => {
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

  /** One like in its own transaction as the member, held open a moment so the two overlap. */
  const likeAs = (client: pg.Client, from: string, to: string, delayMs: number) =>
    writeAsMemberHeld(
      client,
      from,
      `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like')`,
      [from, to],
      delayMs,
    );

  it('two members liking each other at the same moment get exactly one match and one conversation (20 pairs)', async () => {
    const [c1, c2] = clients as [pg.Client, pg.Client];
    for (let i = 0; i < 20; i++) {
      const a = await createMember(db);
      const b = await createMember(db);
      await Promise.all([likeAs(c1, a, b, (i % 4) * 5), likeAs(c2, b, a, ((i + 2) % 4) * 5)]);
      const r = await db.query<{ matches: number; conversations: number }>(
        `select (select count(*)::int from public.matches where user_id_1 = least($1::uuid, $2::uuid) and user_id_2 = greatest($1::uuid, $2::uuid)) matches,
                (select count(*)::int from public.conversations where participant1_id = least($1::uuid, $2::uuid) and participant2_id = greatest($1::uuid, $2::uuid)) conversations`,
        [a, b],
      );
      expect(r.rows[0], `pair ${i}`).toEqual({ matches: 1, conversations: 1 });
    }
  });
});

// Keeps the file's intent visible when only PGlite runs.
describe.skipIf(kinds.length > 0)('concurrent mutual likes', () => {
  it.skip('runs on PostgreSQL only (set TEST_DATABASE_URL)', () => {});
});
