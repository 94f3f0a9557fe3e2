import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asActor, member } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { addInteraction, createMember, expectSqlError, type NewMember } from './support/members.ts';

interface Candidate {
  id: string;
  name: string;
  age: number;
  distance_band: string | null;
  compatibility_score: number;
  explanation: {
    shared_answers: number;
    shared_interests: string[];
    goals_match: boolean;
    common_questions: number;
  };
}

const yearsAgo = (years: number) => {
  const d = new Date();
  d.setFullYear(d.getFullYear() - years);
  d.setDate(d.getDate() - 1);
  return d.toISOString().slice(0, 10);
};

// Every test works in its own "town" (a distinct grid cell far from the others) with a distance
// preference, so members made by other tests never enter its deck.
let town = 0;

describe.each(getDatabaseKinds())('discovery on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  function placeIn(t: number, options: NewMember & { age?: number; gender?: string } = {}): Promise<string> {
    return createMember(db, {
      ...options,
      profile: {
        gender: options.gender ?? 'woman',
        birthday: yearsAgo(options.age ?? 30),
        location_lat: -60 + t * 2,
        location_lng: 100,
        ...options.profile,
      },
      preferences: { max_distance_band: '25-50 km', ...options.preferences },
    });
  }
  const deck = (
    viewer: string,
    sql = 'select * from public.get_discovery_candidates(100)',
    params: unknown[] = [],
  ) => asActor(db, member(viewer), (tx) => tx.query<Candidate>(sql, params)).then((r) => r.rows);
  const ids = async (viewer: string) => (await deck(viewer)).map((c) => c.id);

  it('excludes self, paused, blocked and reported members either way, and members already liked or skipped', async () => {
    const t = ++town;
    const me = await placeIn(t, { name: 'Me' });
    const visible = await placeIn(t, { name: 'Visible' });
    await placeIn(t, { name: 'Paused', profile: { is_paused: true } });
    const blockedMe = await placeIn(t, { name: 'BlockedMe' });
    const iBlocked = await placeIn(t, { name: 'IBlocked' });
    const reportedMe = await placeIn(t, { name: 'ReportedMe' });
    const iReported = await placeIn(t, { name: 'IReported' });
    const liked = await placeIn(t, { name: 'Liked' });
    const skipped = await placeIn(t, { name: 'Skipped' });
    const likedMe = await placeIn(t, { name: 'LikedMe' });
    await db.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2), ($3, $4)', [
      blockedMe,
      me,
      me,
      iBlocked,
    ]);
    await db.query(
      `insert into public.reports (reporter_id, reported_id, category) values ($1, $2, 'spam'), ($3, $4, 'harassment')`,
      [reportedMe, me, me, iReported],
    );
    await addInteraction(db, me, liked);
    await addInteraction(db, me, skipped, 'skip');
    await addInteraction(db, likedMe, me);
    expect((await ids(me)).sort()).toEqual([visible, likedMe].sort());
    // And the other way round: the hidden members do not see me either.
    for (const other of [blockedMe, iBlocked, reportedMe, iReported])
      expect(await ids(other)).not.toContain(me);
  });

  it("both sides' gender and age preferences must accept each other", async () => {
    const t = ++town;
    const me = await placeIn(t, {
      gender: 'man',
      age: 30,
      preferences: { genders: ['woman'], min_age: 25, max_age: 35 },
    });
    const fits = await placeIn(t, { gender: 'woman', age: 28, preferences: { genders: ['man'] } });
    await placeIn(t, { gender: 'man', age: 28 }); // not my gender preference
    await placeIn(t, { gender: 'woman', age: 40 }); // too old for me
    await placeIn(t, { gender: 'woman', age: 28, preferences: { genders: ['woman'] } }); // I am not her preference
    await placeIn(t, { gender: 'woman', age: 28, preferences: { min_age: 35, max_age: 50 } }); // I am too young for her
    expect(await ids(me)).toEqual([fits]);
  });

  it('without saved preferences the deck follows the profile’s "Looking for" (0128); saved ones win', async () => {
    const t = ++town;
    const profile = { gender: 'man', birthday: yearsAgo(30), location_lat: -60 + t * 2, location_lng: 100 };
    const woman = await placeIn(t, { gender: 'woman', age: 29 });
    const man = await placeIn(t, { gender: 'man', age: 29 });
    const me = await createMember(db, { profile: { ...profile, looking_for: ['woman'] } });
    const offered = await deck(me);
    expect(offered.map((c) => c.id)).toContain(woman);
    expect(offered.map((c) => c.id)).not.toContain(man);
    const genders = await db.query<{ gender: string }>(
      'select distinct gender from public.profiles where id = any($1::uuid[])',
      [offered.map((c) => c.id)],
    );
    expect(genders.rows.map((r) => r.gender)).toEqual(['woman']);
    // Saved preferences that say "anyone" are the member's word.
    const open = await createMember(db, {
      profile: { ...profile, looking_for: ['woman'] },
      preferences: { genders: [] },
    });
    expect(await ids(open)).toEqual(expect.arrayContaining([woman, man]));
    // An explicit filter wins too.
    expect(
      (
        await deck(me, `select * from public.get_discovery_candidates(100, filter_genders => array['man'])`)
      ).map((c) => c.id),
    ).toContain(man);
  });

  it('shows a coarse distance band, never more, and honours the distance preference', async () => {
    const t = ++town;
    const base = -60 + t * 2;
    const me = await placeIn(t, { preferences: { max_distance_band: '10-25 km' } });
    const near = await placeIn(t, { profile: { location_lat: base + 0.1 } }); // ~11 km
    const hidden = await placeIn(t, { profile: { location_lat: base + 0.1, show_distance: false } });
    await placeIn(t, { profile: { location_lat: base + 0.5 } }); // ~56 km: beyond my band
    await placeIn(t, { profile: { location_lat: null, location_lng: null } }); // unknown: not within any band
    const rows = await deck(me);
    expect(rows.map((r) => r.id).sort()).toEqual([near, hidden].sort());
    expect(rows.find((r) => r.id === near)?.distance_band).toBe('10-25 km');
    expect(rows.find((r) => r.id === hidden)?.distance_band).toBeNull();
    const widened = await deck(
      me,
      `select * from public.get_discovery_candidates(100, filter_max_distance_band => '50-100 km')`,
    );
    expect(widened).toHaveLength(3);
    const privateKeys = ['location_lat', 'location_lng', 'birthday', 'email', 'street_address', 'zip_code'];
    for (const r of widened) for (const key of privateKeys) expect(Object.keys(r)).not.toContain(key);
  });

  it('ranks by compatibility and explains it', async () => {
    const t = ++town;
    const me = await placeIn(t, {
      profile: { interests: ['Hiking', 'jazz'], relationship_goals: 'long-term' },
    });
    const close = await placeIn(t, {
      profile: { interests: ['hiking', 'Jazz'], relationship_goals: 'long-term' },
    });
    const far = await placeIn(t, { profile: { interests: ['golf'], relationship_goals: 'casual' } });
    const middle = await placeIn(t, { profile: { interests: ['hiking'], relationship_goals: 'casual' } });
    for (const [who, answer] of [
      [me, 0],
      [close, 0],
      [far, 1],
    ] as const) {
      await db.query(
        `insert into public.profile_answers (user_id, question_id, answer, acceptable_answers, importance) values ($1, 1, $2, $3, 3)`,
        [who, answer, [answer]],
      );
    }
    const rows = await deck(me);
    expect(rows.map((r) => r.id)).toEqual([close, middle, far]);
    expect(rows[0]?.compatibility_score).toBe(100);
    expect(rows[0]?.explanation).toMatchObject({
      shared_answers: 1,
      common_questions: 1,
      shared_interests: ['hiking', 'jazz'],
      goals_match: true,
    });
    expect(rows[2]?.explanation).toMatchObject({
      shared_answers: 0,
      goals_match: false,
      shared_interests: [],
    });
  });

  it('the deck scores and explanations equal get_compatibility for every candidate, minus one-sided figures', async () => {
    const t = ++town;
    const me = await placeIn(t, {
      profile: { interests: ['Art', 'chess', 'Food '], relationship_goals: 'casual' },
    });
    const others: string[] = [];
    for (let i = 0; i < 6; i++) {
      const id = await placeIn(t, {
        profile: {
          interests: [['art'], ['CHESS', 'food'], [], ['golf', 'Art'], ['chess'], ['food', 'art', 'chess']][
            i
          ],
          relationship_goals: i % 2 === 0 ? 'casual' : 'long-term',
        },
      });
      others.push(id);
      for (let q = 1; q <= 4; q++) {
        if ((i + q) % 3 === 0) continue;
        await db.query(
          `insert into public.profile_answers (user_id, question_id, answer, acceptable_answers, importance) values ($1, $2, $3, $4, $5)`,
          [id, q, (i * q) % 3, [(i + q) % 3, 0], (i + q) % 4],
        );
      }
    }
    for (let q = 1; q <= 4; q++) {
      await db.query(
        `insert into public.profile_answers (user_id, question_id, answer, acceptable_answers, importance) values ($1, $2, $3, $4, $5)`,
        [me, q, q % 3, [0, 1], q % 4],
      );
    }
    const rows = await deck(me);
    expect(rows.map((r) => r.id).sort()).toEqual([...others].sort());
    for (const r of rows) {
      const c = await db.query<{ score: number; explanation: Record<string, unknown> }>(
        'select score, explanation from public.get_compatibility($1, $2)',
        [me, r.id],
      );
      // The card says what both share; how well the other's private answers fit the member's wishes
      // (answers_score) never leaves the database (issue 13).
      const { answers_score: oneSided, ...shared } = c.rows[0]!.explanation;
      expect(r.explanation).not.toHaveProperty('answers_score');
      if (r.explanation['common_questions'] !== 0) expect(oneSided).toEqual(expect.any(Number));
      expect({ id: r.id, score: r.compatibility_score, explanation: r.explanation }).toEqual({
        id: r.id,
        score: c.rows[0]?.score,
        explanation: shared,
      });
    }
    const scores = rows.map((r) => r.compatibility_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('members leaving (deletion pending) are not offered, within a band or without; a cancelled request is forgotten', async () => {
    const t = ++town;
    const me = await placeIn(t);
    const leaving = await placeIn(t);
    const stayed = await placeIn(t);
    await db.query(`insert into public.account_deletion_requests (user_id) values ($1), ($2)`, [
      leaving,
      stayed,
    ]);
    await db.query(
      `update public.account_deletion_requests set status = 'cancelled', cancelled_at = now() where user_id = $1`,
      [stayed],
    );
    expect(await ids(me)).toEqual([stayed]);
    // '100+ km' reads the pool without a band (the walk along the recency index)
    const wide = await deck(
      me,
      `select * from public.get_discovery_candidates(100, filter_max_distance_band => '100+ km')`,
    );
    expect(wide.map((r) => r.id)).not.toContain(leaving);
    expect(wide.map((r) => r.id)).toContain(stayed);
  });

  it('filters replace the stored preference and bad filters are refused with 22023', async () => {
    const t = ++town;
    const me = await placeIn(t, { preferences: { min_age: 18, max_age: 99 } });
    const young = await placeIn(t, { age: 22 });
    const older = await placeIn(t, { age: 45 });
    expect((await ids(me)).sort()).toEqual([young, older].sort());
    const filtered = await deck(
      me,
      'select * from public.get_discovery_candidates(100, filter_min_age => 40)',
    );
    expect(filtered.map((r) => r.id)).toEqual([older]);
    for (const sql of [
      'select * from public.get_discovery_candidates(0)',
      'select * from public.get_discovery_candidates(1000)',
      `select * from public.get_discovery_candidates(10, filter_max_distance_band => 'next door')`,
      'select * from public.get_discovery_candidates(10, filter_min_age => 50, filter_max_age => 30)',
    ]) {
      await expectSqlError(deck(me, sql), '22023');
    }
  });

  it('get_compatibility is not callable by members (it reads private answers)', async () => {
    const me = await createMember(db);
    await expectSqlError(
      asActor(db, member(me), (tx) => tx.query('select * from public.get_compatibility($1, $1)', [me])),
      '42501',
    );
  });
});
