import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_DAILY_LIKES } from '../../src/features/likes/like-limit.ts';
import { asActor, member } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { addInteraction, createMember, expectSqlError, grantPremium } from './support/members.ts';

describe.each(getDatabaseKinds())('likes and matches on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const like = (from: string, to: string, type: 'like' | 'skip' = 'like') =>
    asActor(db, member(from), (tx) =>
      tx.query(
        'insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, $3)',
        [from, to, type],
      ),
    );
  const countPair = async (a: string, b: string) => {
    const r = await db.query<{ matches: number; conversations: number }>(
      `select (select count(*)::int from public.matches where user_id_1 = least($1::uuid, $2::uuid) and user_id_2 = greatest($1::uuid, $2::uuid)) matches,
              (select count(*)::int from public.conversations where participant1_id = least($1::uuid, $2::uuid) and participant2_id = greatest($1::uuid, $2::uuid)) conversations`,
      [a, b],
    );
    return r.rows[0];
  };

  it('a mutual like makes exactly one match and one conversation, in either order', async () => {
    for (const order of ['ab', 'ba'] as const) {
      const a = await createMember(db);
      const b = await createMember(db);
      if (order === 'ab') {
        await like(a, b);
        expect(await countPair(a, b)).toEqual({ matches: 0, conversations: 0 });
        await like(b, a);
      } else {
        await like(b, a);
        await like(a, b);
      }
      expect(await countPair(a, b)).toEqual({ matches: 1, conversations: 1 });
      const conv = await db.query<{ linked: boolean }>(
        `select c.match_id = m.id linked from public.conversations c join public.matches m
         on m.user_id_1 = c.participant1_id and m.user_id_2 = c.participant2_id
         where c.participant1_id = least($1::uuid, $2::uuid)`,
        [a, b],
      );
      expect(conv.rows[0]?.linked).toBe(true);
    }
  });

  it('a like answered by a skip makes no match', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    await like(a, b);
    await like(b, a, 'skip');
    expect(await countPair(a, b)).toEqual({ matches: 0, conversations: 0 });
  });

  it("a like in someone else's name is refused, so a match cannot be forged", async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    const mallory = await createMember(db);
    await like(a, b);
    await expectSqlError(
      asActor(db, member(mallory), (tx) =>
        tx.query(
          `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'like')`,
          [b, a],
        ),
      ),
      '42501',
    );
    await expectSqlError(
      asActor(db, member(a), (tx) =>
        tx.query(
          'insert into public.matches (user_id_1, user_id_2) values (least($1::uuid, $2::uuid), greatest($1::uuid, $2::uuid))',
          [a, b],
        ),
      ),
      '42501',
    );
    await expectSqlError(
      asActor(db, member(a), (tx) =>
        tx.query(
          'insert into public.conversations (participant1_id, participant2_id) values (least($1::uuid, $2::uuid), greatest($1::uuid, $2::uuid))',
          [a, b],
        ),
      ),
      '42501',
    );
    expect(await countPair(a, b)).toEqual({ matches: 0, conversations: 0 });
  });

  it('a like cannot be withdrawn or changed, and a second like of the same member is a duplicate', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    await like(a, b);
    await expectSqlError(like(a, b), '23505');
    // A delete reaches only the member's own recent skips (0127): the like stays.
    const deleted = await asActor(db, member(a), (tx) =>
      tx.query('delete from public.user_interactions where user_id = $1', [a]),
    );
    expect(deleted.rowCount).toBe(0);
    const kept = await db.query('select 1 from public.user_interactions where user_id = $1', [a]);
    expect(kept.rows).toHaveLength(1);
    await expectSqlError(
      asActor(db, member(a), (tx) =>
        tx.query(`update public.user_interactions set interaction_type = 'skip' where user_id = $1`, [a]),
      ),
      '42501',
    );
  });

  it('a member undoes their own skip within the hour, never someone else’s, never an older one', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    const c = await createMember(db);
    for (const [from, to] of [
      [a, b],
      [a, c],
      [b, a],
    ] as const)
      await asActor(db, member(from), (tx) =>
        tx.query(
          `insert into public.user_interactions (user_id, target_id, interaction_type) values ($1, $2, 'skip')`,
          [from, to],
        ),
      );
    await db.query(
      `update public.user_interactions set created_at = now() - interval '2 hours' where user_id = $1 and target_id = $2`,
      [a, c],
    );
    const undone = await asActor(db, member(a), (tx) =>
      tx.query('delete from public.user_interactions where target_id = any($1::uuid[]) or user_id = $2', [
        [b, c],
        b,
      ]),
    );
    expect(undone.rowCount).toBe(1);
    const left = await db.query<{ user_id: string; target_id: string }>(
      'select user_id, target_id from public.user_interactions where user_id = any($1::uuid[]) order by user_id',
      [[a, b]],
    );
    expect(left.rows).toEqual(
      expect.arrayContaining([
        { user_id: a, target_id: c },
        { user_id: b, target_id: a },
      ]),
    );
    expect(left.rows).toHaveLength(2);
  });

  it('liking a member across a block is refused both ways, and a mutual like across a block makes no match', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    await like(a, b);
    await db.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [a, b]);
    await expectSqlError(like(b, a), '42501');
    await expectSqlError(
      like(a, await createMember(db)).then(() => like(a, b)),
      '42501',
    );
    // Even the service role cannot write the answering like across a block (0050), so no match.
    await expectSqlError(addInteraction(db, b, a), '42501');
    expect(await countPair(a, b)).toEqual({ matches: 0, conversations: 0 });
  });

  it('a block hides the existing match and conversation from both members', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    await like(a, b);
    await like(b, a);
    const visible = (who: string) =>
      asActor(db, member(who), (tx) =>
        tx.query<{ n: number }>(
          `select (select count(*) from public.matches)::int + (select count(*) from public.conversations)::int n`,
        ),
      ).then((r) => r.rows[0]?.n);
    expect(await visible(a)).toBe(2);
    await asActor(db, member(b), (tx) =>
      tx.query('insert into public.blocked_users (blocker_id, blocked_id, reason) values ($1, $2, $3)', [
        b,
        a,
        'x',
      ]),
    );
    expect(await visible(a)).toBe(0);
    expect(await visible(b)).toBe(0);
    // The blocked member cannot see the block itself.
    const blocks = await asActor(db, member(a), (tx) => tx.query('select * from public.blocked_users'));
    expect(blocks.rows).toEqual([]);
  });

  it('free members are held to the daily like limit with a clear error; premium members are not', async () => {
    const free = await createMember(db);
    const premium = await createMember(db);
    await grantPremium(db, premium);
    const limit = (await db.query<{ n: number }>('select public.get_daily_like_limit() n')).rows[0]?.n ?? 0;
    // The app's early check before a like (src/features/likes/like-limit.ts) copies this figure.
    expect(limit).toBe(FREE_DAILY_LIKES);
    const targets: string[] = [];
    for (let i = 0; i <= limit; i++) targets.push(await createMember(db));
    for (let i = 0; i < limit; i++) await like(free, targets[i] as string);
    await expectSqlError(like(free, targets[limit] as string), 'P0001', 'daily_like_limit_reached');
    // Skips are not limited.
    await like(free, targets[limit] as string, 'skip');
    for (const t of targets) await like(premium, t);
    const n = await db.query<{ n: number }>(
      'select count(*)::int n from public.user_interactions where user_id = $1',
      [premium],
    );
    expect(n.rows[0]?.n).toBe(limit + 1);
  });

  it('a like backdated by the client still counts today', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    await asActor(db, member(a), (tx) =>
      tx.query(
        `insert into public.user_interactions (user_id, target_id, interaction_type, created_at) values ($1, $2, 'like', now() - interval '3 days')`,
        [a, b],
      ),
    );
    const r = await db.query<{ recent: boolean }>(
      `select created_at > now() - interval '1 minute' recent from public.user_interactions where user_id = $1`,
      [a],
    );
    expect(r.rows[0]?.recent).toBe(true);
  });

  it('received likes list unanswered likes newest first, and the unread count follows likes_seen_at', async () => {
    const me = await createMember(db);
    const [l1, l2, l3, l4] = [
      await createMember(db, { name: 'First Liker' }),
      await createMember(db, { name: 'Second' }),
      await createMember(db, { name: 'Third' }),
      await createMember(db, { name: 'Blocked' }),
    ] as [string, string, string, string];
    await updateLikeTimes(l1, me, 3);
    await updateLikeTimes(l2, me, 2);
    await updateLikeTimes(l3, me, 1);
    await updateLikeTimes(l4, me, 0);
    await like(me, l3, 'skip');
    await db.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [l4, me]);
    const likes = await asActor(db, member(me), (tx) =>
      tx.query<{ liker_id: string; name: string; liker_photos: string[] }>(
        'select liker_id, name, liker_photos from public.get_received_likes(20, 0)',
      ),
    );
    expect(likes.rows.map((r) => r.liker_id)).toEqual([l2, l1]);
    expect(likes.rows[1]).toMatchObject({ name: 'First', liker_photos: [] });
    const page2 = await asActor(db, member(me), (tx) =>
      tx.query<{ liker_id: string }>('select liker_id from public.get_received_likes(1, 1)'),
    );
    expect(page2.rows.map((r) => r.liker_id)).toEqual([l1]);
    const unread = () =>
      asActor(db, member(me), (tx) =>
        tx.query<{ n: number }>('select public.get_unread_likes_count() n'),
      ).then((r) => r.rows[0]?.n);
    expect(await unread()).toBe(2);
    await asActor(db, member(me), (tx) => tx.query('select public.mark_likes_seen()'));
    expect(await unread()).toBe(0);
    await like(await createMember(db), me);
    // like() above inserted as the liker; the count sees it.
    expect(await unread()).toBe(1);
    await expectSqlError(
      asActor(db, member(me), (tx) => tx.query('select * from public.get_received_likes(1000, 0)')),
      '22023',
    );
    await expectSqlError(
      asActor(db, member(me), (tx) => tx.query('select * from public.get_received_likes(20, -1)')),
      '22023',
    );
  });

  async function updateLikeTimes(from: string, to: string, hoursAgo: number): Promise<void> {
    await addInteraction(db, from, to);
    await db.query(
      `update public.user_interactions set created_at = now() - make_interval(hours => $3) where user_id = $1 and target_id = $2`,
      [from, to, hoursAgo],
    );
  }

  it('triggers notify the liked member of a like and both members of a match', async () => {
    const a = await createMember(db, { name: 'Ann' });
    const b = await createMember(db, { name: 'Bob' });
    await like(a, b);
    await like(b, a);
    const r = await db.query<{ user_id: string; type: string; body: string }>(
      'select user_id, type, body from public.notifications where user_id in ($1, $2) order by type, user_id',
      [a, b],
    );
    const types = r.rows.map((x) => `${x.user_id === a ? 'a' : 'b'}:${x.type}`).sort();
    expect(types).toEqual(['a:like', 'a:match', 'b:like', 'b:match']);
    expect(r.rows.find((x) => x.user_id === a && x.type === 'match')?.body).toBe(
      'You and Bob liked each other!',
    );
  });

  it('a skip is seen by the skipper only; a like is seen by both', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    const c = await createMember(db);
    await like(a, b, 'skip');
    await like(c, b);
    const seenByB = await asActor(db, member(b), (tx) =>
      tx.query<{ user_id: string }>('select user_id from public.user_interactions where target_id = $1', [b]),
    );
    expect(seenByB.rows.map((r) => r.user_id)).toEqual([c]);
    const seenByA = await asActor(db, member(a), (tx) =>
      tx.query<{ target_id: string }>('select target_id from public.user_interactions'),
    );
    expect(seenByA.rows.map((r) => r.target_id)).toEqual([b]);
  });

  it('the hidden-pair and can-message helpers tell a member nothing about pairs they are not in', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    const nosy = await createMember(db);
    await like(a, b);
    await like(b, a);
    await db.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [a, b]);
    // Policies run it as the member (app_private, out of the API's reach since 0116).
    const asNosy = await asActor(db, member(nosy), (tx) =>
      tx.query<{ hidden: boolean }>('select app_private.is_hidden_pair($1, $2) hidden', [a, b]),
    );
    expect(asNosy.rows[0]?.hidden).toBe(false);
    const asA = await asActor(db, member(a), (tx) =>
      tx.query<{ hidden: boolean }>('select app_private.is_hidden_pair($1, $2) hidden', [a, b]),
    );
    expect(asA.rows[0]?.hidden).toBe(true);
    // The public name is no endpoint: B cannot ask whether they were blocked rather than unmatched.
    await expectSqlError(
      asActor(db, member(b), (tx) => tx.query('select public.is_hidden_pair($1, $2) hidden', [a, b])),
      '42501',
    );
    const m = await db.query<{ id: string }>(
      'select id from public.conversations where participant1_id = least($1::uuid, $2::uuid) and participant2_id = greatest($1::uuid, $2::uuid)',
      [a, b],
    );
    await db.query('delete from public.blocked_users where blocker_id = $1', [a]);
    // The block ended the match (0050), so the pair likes each other again to message.
    await like(a, b);
    await like(b, a);
    const probe = await asActor(db, member(nosy), (tx) =>
      tx.query<{ ok: boolean }>('select public.can_message($1, $2, $3) ok', [m.rows[0]?.id, a, b]),
    );
    expect(probe.rows[0]?.ok).toBe(false);
    const own = await asActor(db, member(a), (tx) =>
      tx.query<{ ok: boolean }>('select public.can_message($1, $2, $3) ok', [m.rows[0]?.id, a, b]),
    );
    expect(own.rows[0]?.ok).toBe(true);
  });

  it('either member may unmatch, which ends messaging but keeps the history readable', async () => {
    const a = await createMember(db);
    const b = await createMember(db);
    await like(a, b);
    await like(b, a);
    const removed = await asActor(db, member(b), (tx) => tx.query('delete from public.matches returning id'));
    expect(removed.rows.length).toBe(1);
    const conv = await db.query<{ match_id: string | null }>(
      'select match_id from public.conversations where participant1_id = least($1::uuid, $2::uuid)',
      [a, b],
    );
    expect(conv.rows[0]?.match_id).toBeNull();
  });
});
