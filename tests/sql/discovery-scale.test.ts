// Discovery at scale: with a few hundred members (below the scored-pool cap of 0032) the deck must
// equal a brute-force ranking of every candidate by the TypeScript compatibility rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  computeCompatibility,
  type CompatibilityAnswer,
  type CompatibilityProfile,
  type Importance,
} from '../../src/domain/compatibility.ts';
import { getDistanceBand, getDistanceKm, isWithinBand } from '../../src/domain/distance-band.ts';
import { asActor, member } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';

const MEMBERS = 300;
const GENDERS = ['woman', 'man', 'non-binary'] as const;
const GOALS = [null, 'long-term', 'short-term', 'marriage', 'casual'] as const;
const INTERESTS = ['Music', 'travel', 'Hiking', 'films', ' cooking ', 'chess', 'yoga'] as const;

/** Deterministic pseudo-random numbers (mulberry32), so a failure reproduces. */
function createRandom(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

interface Generated extends CompatibilityProfile {
  id: string;
  gender: string;
  lat: number;
  lng: number;
  lastSeen: string | null;
  showOnline: boolean;
}

function generateMember(random: (n: number) => number, index: number): Generated {
  // Questions 1-8 only, so most pairs have several questions in common.
  const answers: CompatibilityAnswer[] = [];
  for (let q = 1; q <= 8; q++) {
    if (random(4) === 0) continue;
    const acceptable = [...new Set([random(3), random(3)])].sort();
    answers.push({
      questionId: q,
      answer: random(3),
      acceptableAnswers: acceptable,
      importance: random(4) as Importance,
    });
  }
  const seenMinutes = random(5) === 0 ? null : random(100_000);
  return {
    id: `00000000-0000-4000-8000-${index.toString(16).padStart(12, '0')}`,
    gender: GENDERS[random(GENDERS.length)]!,
    // A 0.1-degree grid around (10, 10): some in each band, some beyond the viewer's 25-50 km band.
    lat: Math.round((10 + (random(11) - 5) / 10) * 10) / 10,
    lng: 10 + random(3) / 10,
    lastSeen:
      seenMinutes === null ? null : new Date(Date.UTC(2026, 0, 1) - seenMinutes * 60_000).toISOString(),
    showOnline: random(4) !== 0,
    interests: INTERESTS.filter(() => random(3) === 0),
    relationshipGoals: GOALS[random(GOALS.length)]!,
    answers,
  };
}

/** Members in bulk (one statement per table), the way sign-up makes them: the trigger makes profiles. */
async function insertMembers(db: TestDatabase, everyone: Generated[]): Promise<void> {
  const rows = JSON.stringify(everyone);
  await db.query(
    `insert into auth.users (id, email, raw_user_meta_data)
     select (m->>'id')::uuid, 'scale-' || (m->>'id') || '@example.test', jsonb_build_object('name', 'Member')
     from jsonb_array_elements($1::jsonb) m`,
    [rows],
  );
  await db.query(
    `update public.profiles p set
       gender = m->>'gender', birthday = date '1990-06-15',
       location_lat = (m->>'lat')::numeric, location_lng = (m->>'lng')::numeric,
       last_seen = (m->>'lastSeen')::timestamptz, show_online_status = (m->>'showOnline')::boolean,
       interests = array(select jsonb_array_elements_text(m->'interests')),
       relationship_goals = m->>'relationshipGoals'
     from jsonb_array_elements($1::jsonb) m where p.id = (m->>'id')::uuid`,
    [rows],
  );
  await db.query(
    `insert into public.profile_answers (user_id, question_id, answer, acceptable_answers, importance)
     select (m->>'id')::uuid, (x->>'questionId')::int, (x->>'answer')::smallint,
       array(select jsonb_array_elements_text(x->'acceptableAnswers')::smallint), (x->>'importance')::smallint
     from jsonb_array_elements($1::jsonb) m, jsonb_array_elements(m->'answers') x`,
    [rows],
  );
}

describe.each(getDatabaseKinds())('discovery at scale on %s', (kind) => {
  let db: TestDatabase;
  const random = createRandom(20260322);
  const viewer: Generated = { ...generateMember(random, 0), lat: 10, lng: 10 };
  const others = Array.from({ length: MEMBERS }, (_, i) => generateMember(random, i + 1));
  const everyone = [viewer, ...others];

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await insertMembers(db, everyone);
    await db.query(
      `insert into public.match_preferences (user_id, genders, max_distance_band) values ($1, $2, '25-50 km')`,
      [viewer.id, ['woman', 'man']],
    );
  }, 120_000);
  afterAll(async () => {
    await db?.destroy();
  });

  it('the deck equals a brute-force ranking of every eligible member', async () => {
    const seen = (m: Generated) => (m.showOnline && m.lastSeen ? Date.parse(m.lastSeen) : null);
    const expected = others
      .filter((m) => m.gender === 'woman' || m.gender === 'man')
      .filter((m) =>
        isWithinBand(getDistanceBand(getDistanceKm(viewer.lat, viewer.lng, m.lat, m.lng)), '25-50 km'),
      )
      .map((m) => ({ m, score: computeCompatibility(viewer, m).score }))
      .sort(
        (a, b) =>
          b.score - a.score ||
          (seen(b.m) ?? -Infinity) - (seen(a.m) ?? -Infinity) ||
          (a.m.id < b.m.id ? -1 : a.m.id > b.m.id ? 1 : 0),
      );
    // Enough eligible members that the page is a real cut, and some excluded by each filter.
    expect(expected.length).toBeGreaterThan(100);
    expect(expected.length).toBeLessThan(others.length - 50);

    const deck = await asActor(db, member(viewer.id), (tx) =>
      tx.query<{ id: string; compatibility_score: number }>(
        'select id, compatibility_score from public.get_discovery_candidates(100)',
      ),
    );
    expect(deck.rows.map((r) => [r.id, r.compatibility_score])).toEqual(
      expected.slice(0, 100).map((e) => [e.m.id, e.score]),
    );
  });

  it('a narrower filter ranks the same way within what it keeps', async () => {
    const expected = others
      .filter((m) => m.gender === 'woman')
      .filter((m) =>
        isWithinBand(getDistanceBand(getDistanceKm(viewer.lat, viewer.lng, m.lat, m.lng)), '10-25 km'),
      )
      .map((m) => m.id)
      .sort();
    const deck = await asActor(db, member(viewer.id), (tx) =>
      tx.query<{ id: string }>(
        `select id from public.get_discovery_candidates(100, filter_genders => array['woman'],
           filter_max_distance_band => '10-25 km')`,
      ),
    );
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.length).toBeLessThan(100);
    expect(deck.rows.map((r) => r.id).sort()).toEqual(expected);
  });

  it('extreme age filters answer (possibly empty) decks, never a date error', async () => {
    const call = (min: number, max: number) =>
      asActor(db, member(viewer.id), (tx) =>
        tx.query<{ id: string }>('select id from public.get_discovery_candidates(100, $1, $2)', [min, max]),
      ).then((r) => r.rows.length);
    expect(await call(2_000_000_000, 2_147_483_647)).toBe(0);
    expect(await call(-2_147_483_648, -2_000_000_000)).toBe(0);
    // Every generated member was born in 1990, so 18 to a huge maximum keeps them all.
    expect(await call(18, 2_147_483_647)).toBe(100);
  });
});

// Above the cap (decision 0022, kept by 0061): the deck is the best of the 500 most recently active
// eligible members, in order of last_seen (raw, even when hidden; never seen last), then id. Members the
// viewer already liked or skipped leave that window before it is counted, so it moves on as they swipe.
describe.each(getDatabaseKinds())('discovery above the scored-pool cap on %s', (kind) => {
  const POOL_CAP = 500;
  let db: TestDatabase;
  const random = createRandom(20261122);
  const viewer: Generated = { ...generateMember(random, 0), lat: 10, lng: 10 };
  // All within reach of a viewer without preferences: eligibility here is only the exclusions.
  const others = Array.from({ length: 620 }, (_, i) => generateMember(random, i + 1));
  const everyone = [viewer, ...others];
  const byRecency = (a: Generated, b: Generated) =>
    (b.lastSeen === null ? -Infinity : Date.parse(b.lastSeen)) -
      (a.lastSeen === null ? -Infinity : Date.parse(a.lastSeen)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  // The viewer skipped the 40 most recently active members and liked 20 more further back.
  const recent = [...others].sort(byRecency);
  const skipped = recent.slice(0, 40);
  const liked = recent.filter((_, i) => i >= 40 && i % 25 === 7).slice(0, 20);

  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await insertMembers(db, everyone);
    await db.query(
      `insert into public.user_interactions (user_id, target_id, interaction_type)
       select $1::uuid, t, 'skip' from unnest($2::uuid[]) t union all select $1::uuid, t, 'like' from unnest($3::uuid[]) t`,
      [viewer.id, skipped.map((m) => m.id), liked.map((m) => m.id)],
    );
  }, 120_000);
  afterAll(async () => {
    await db?.destroy();
  });

  it('the deck is the brute-force ranking of the 500 most recently active eligible members', async () => {
    const gone = new Set([...skipped, ...liked].map((m) => m.id));
    const eligible = recent.filter((m) => !gone.has(m.id));
    expect(eligible.length).toBeGreaterThan(POOL_CAP + 50);
    const seen = (m: Generated) => (m.showOnline && m.lastSeen ? Date.parse(m.lastSeen) : null);
    const ranked = eligible
      .slice(0, POOL_CAP)
      .map((m) => ({ m, score: computeCompatibility(viewer, m).score }))
      .sort(
        (a, b) =>
          b.score - a.score ||
          (seen(b.m) ?? -Infinity) - (seen(a.m) ?? -Infinity) ||
          (a.m.id < b.m.id ? -1 : a.m.id > b.m.id ? 1 : 0),
      );
    // The cap matters: ranking every eligible member would give a different page.
    const uncapped = eligible
      .map((m) => ({ m, score: computeCompatibility(viewer, m).score }))
      .sort(
        (a, b) =>
          b.score - a.score ||
          (seen(b.m) ?? -Infinity) - (seen(a.m) ?? -Infinity) ||
          (a.m.id < b.m.id ? -1 : a.m.id > b.m.id ? 1 : 0),
      );
    expect(uncapped.slice(0, 100).map((e) => e.m.id)).not.toEqual(ranked.slice(0, 100).map((e) => e.m.id));

    const deck = await asActor(db, member(viewer.id), (tx) =>
      tx.query<{ id: string; compatibility_score: number }>(
        'select id, compatibility_score from public.get_discovery_candidates(100)',
      ),
    );
    expect(deck.rows.map((r) => [r.id, r.compatibility_score])).toEqual(
      ranked.slice(0, 100).map((e) => [e.m.id, e.score]),
    );

    // A band that keeps everyone (all are within about 60 km) reads the box instead (0132): the same pool
    // in the same order, so the same deck.
    const inBand = await asActor(db, member(viewer.id), (tx) =>
      tx.query<{ id: string; compatibility_score: number }>(
        `select id, compatibility_score from public.get_discovery_candidates(100,
           filter_max_distance_band => '50-100 km')`,
      ),
    );
    expect(everyone.every((m) => getDistanceKm(viewer.lat, viewer.lng, m.lat, m.lng) < 100)).toBe(true);
    expect(inBand.rows).toEqual(deck.rows);
  });

  it('within a band, the pool is the 500 most recently active eligible members inside it', async () => {
    const gone = new Set([...skipped, ...liked].map((m) => m.id));
    // 25-50 km leaves out the rows 0.5 degrees of latitude away (about 56 km).
    const within = (m: Generated) =>
      isWithinBand(getDistanceBand(getDistanceKm(viewer.lat, viewer.lng, m.lat, m.lng)), '25-50 km');
    const eligible = recent.filter((m) => !gone.has(m.id) && within(m));
    expect(eligible.length).toBeLessThan(recent.length - gone.size);
    const seen = (m: Generated) => (m.showOnline && m.lastSeen ? Date.parse(m.lastSeen) : null);
    const ranked = eligible
      .slice(0, POOL_CAP)
      .map((m) => ({ m, score: computeCompatibility(viewer, m).score }))
      .sort(
        (a, b) =>
          b.score - a.score ||
          (seen(b.m) ?? -Infinity) - (seen(a.m) ?? -Infinity) ||
          (a.m.id < b.m.id ? -1 : a.m.id > b.m.id ? 1 : 0),
      );
    const deck = await asActor(db, member(viewer.id), (tx) =>
      tx.query<{ id: string; compatibility_score: number }>(
        `select id, compatibility_score from public.get_discovery_candidates(100,
           filter_max_distance_band => '25-50 km')`,
      ),
    );
    expect(deck.rows.map((r) => [r.id, r.compatibility_score])).toEqual(
      ranked.slice(0, 100).map((e) => [e.m.id, e.score]),
    );
  });

  // 0135, 0140: a band of 100 grid points or more reads the members active within the last week first, then,
  // when they do not fill the pool, a window stretched from what the week gave, then everything older. The
  // deck must not tell: it is the brute-force ranking whichever window fills the pool (the week; the second
  // window; none, so everything is read; a week too thin to stretch from, so everything after it is read).
  it("a wide band's windows of recent activity give the same deck as reading the whole band", async () => {
    const gone = new Set([...skipped, ...liked].map((m) => m.id));
    const seen = (m: Generated) => (m.showOnline && m.lastSeen ? Date.parse(m.lastSeen) : null);
    const minute = 60_000;
    const now = Date.now();
    const rng = createRandom(20261128);
    try {
      const day = 24 * 60;
      const cases = [
        { recentShare: 1, olderFrom: 9 * day, olderSpan: 30 * day, neverSeen: 0, fills: 'the week' },
        { recentShare: 0.5, olderFrom: 9 * day, olderSpan: 30 * day, neverSeen: 3, fills: 'everything' },
        {
          recentShare: 0.5,
          olderFrom: 8 * day,
          olderSpan: 4 * day,
          neverSeen: 0,
          fills: 'the second window',
        },
        {
          recentShare: 0.05,
          olderFrom: 8 * day,
          olderSpan: 4 * day,
          neverSeen: 3,
          fills: 'everything after the week',
        },
      ];
      // (neverSeen: every nth of the older members was never seen, so the pool ends with never-seen members)
      for (const { recentShare, olderFrom, olderSpan, neverSeen, fills } of cases) {
        // The viewer's position and preferences stay; only when the others were last active changes.
        const moved = others.map((m, i) => ({
          ...m,
          lastSeen:
            i < others.length * recentShare
              ? new Date(now - (60 + rng(6 * 24 * 60)) * minute).toISOString()
              : neverSeen > 0 && i % neverSeen === 0
                ? null
                : new Date(now - (olderFrom + rng(olderSpan)) * minute).toISOString(),
        }));
        await db.query(
          `update public.profiles p set last_seen = x.seen
           from unnest($1::uuid[], $2::timestamptz[]) x(id, seen) where p.id = x.id`,
          [moved.map((m) => m.id), moved.map((m) => m.lastSeen)],
        );
        const eligible = [...moved].sort(byRecency).filter((m) => !gone.has(m.id));
        const thisWeek = eligible.filter((m) => Date.parse(m.lastSeen!) > now - 7 * 24 * 60 * minute);
        const seenEligible = eligible.filter((m) => m.lastSeen !== null);
        // Where some were never seen, the pool reaches them.
        expect(seenEligible.length < POOL_CAP).toBe(neverSeen > 0);
        // Which window fills the pool: the week; the second (twice the week per pool over what the week
        // gave, when it gave at least an eighth of the pool); none.
        const second =
          thisWeek.length * 8 >= POOL_CAP
            ? now - (7 * day * minute * 2 * POOL_CAP) / thisWeek.length
            : Number.POSITIVE_INFINITY;
        const byTheSecond = eligible.filter((m) => Date.parse(m.lastSeen!) >= second);
        expect(
          thisWeek.length >= POOL_CAP
            ? 'the week'
            : byTheSecond.length >= POOL_CAP
              ? 'the second window'
              : thisWeek.length * 8 >= POOL_CAP
                ? 'everything'
                : 'everything after the week',
        ).toBe(fills);
        const ranked = eligible
          .slice(0, POOL_CAP)
          .map((m) => ({ m, score: computeCompatibility(viewer, m).score }))
          .sort(
            (a, b) =>
              b.score - a.score ||
              (seen(b.m) ?? -Infinity) - (seen(a.m) ?? -Infinity) ||
              (a.m.id < b.m.id ? -1 : a.m.id > b.m.id ? 1 : 0),
          );
        const deck = await asActor(db, member(viewer.id), (tx) =>
          tx.query<{ id: string; compatibility_score: number }>(
            `select id, compatibility_score from public.get_discovery_candidates(100,
               filter_max_distance_band => '50-100 km')`,
          ),
        );
        expect(
          deck.rows.map((r) => [r.id, r.compatibility_score]),
          `${fills} fills the pool`,
        ).toEqual(ranked.slice(0, 100).map((e) => [e.m.id, e.score]));
      }
    } finally {
      await db.query(
        `update public.profiles p set last_seen = x.seen
         from unnest($1::uuid[], $2::timestamptz[]) x(id, seen) where p.id = x.id`,
        [others.map((m) => m.id), others.map((m) => m.lastSeen)],
      );
    }
  });
});
