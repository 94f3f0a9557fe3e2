// The demo community: seeds an empty database, the demo account signs in and sees likes and a deck, and a second run changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_CONVERSATION,
  DEMO_DISTANCE_BAND,
  DEMO_EMAIL,
  DEMO_LIKERS,
  DEMO_MATCHES,
  DEMO_MEMBER_COUNT,
  DEMO_PHOTOS_PER_MEMBER,
  seedDemoCommunity,
} from '../../server/demo/seed-demo.ts';
import { isWithinBand, type DistanceBand } from '../../src/domain/distance-band.ts';
import { createAnonClient, createMember } from '../fixtures/members.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

async function count(t: TestServer, sql: string): Promise<number> {
  const r = await t.db.query<{ n: number }>(`select (${sql})::int as n`);
  return r.rows[0]!.n;
}

describe.each(getDatabaseKinds())('demo community on %s', (kind) => {
  let t: TestServer;
  let first: Awaited<ReturnType<typeof seedDemoCommunity>>;
  let seedMs = 0;

  beforeAll(async () => {
    t = await startTestServer(kind);
    const started = Date.now();
    first = await seedDemoCommunity(t.server.ctx.db, { dataDir: t.dataDir });
    seedMs = Date.now() - started;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('seeds the synthetic members, their avatars, answers and preferences', async () => {
    expect(first.seeded).toBe(true);
    expect(first.email).toBe(DEMO_EMAIL);
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{12}$/);
    // Speed is printed, not asserted (benchmarks measure speed; tests assert behaviour).
    console.log(`demo community seeded in ${seedMs} ms`);
    const members = DEMO_MEMBER_COUNT + 1;
    expect(await count(t, `select count(*) from public.profiles`)).toBe(members);
    expect(
      await count(
        t,
        `select count(*) from public.public_profiles where cardinality(photos) = ${DEMO_PHOTOS_PER_MEMBER}`,
      ),
    ).toBe(members);
    expect(await count(t, `select count(*) from public.match_preferences`)).toBe(members);
    expect(await count(t, `select count(distinct user_id) from public.profile_answers`)).toBe(members);
    expect(await count(t, `select count(*) from storage.objects where bucket_id = 'profile-photos'`)).toBe(
      members * DEMO_PHOTOS_PER_MEMBER,
    );
    // Every profile satisfies the same checks a member's own edit would (ages 18+, coarse location).
    expect(
      await count(t, `select count(*) from public.profiles where birthday is null or location_lat is null`),
    ).toBe(0);
  });

  it('lets the demo account sign in and see its likes, a ranked deck and the likers’ photos', async () => {
    const client = createAnonClient(t);
    const { data, error } = await client.auth.signInWithPassword({
      email: DEMO_EMAIL,
      password: first.password!,
    });
    expect(error).toBeNull();
    expect(data.session?.access_token).toBeTruthy();

    const likes = await client.rpc('get_received_likes', { limit_count: 20, offset_count: 0 });
    expect(likes.error).toBeNull();
    // The likers not liked back yet; the others are matches already.
    expect(likes.data).toHaveLength(DEMO_LIKERS - DEMO_MATCHES);

    const deck = await client.rpc('get_discovery_candidates', { limit_count: 20 });
    expect(deck.error).toBeNull();
    // A full page, all of it within the demo account's reach of London.
    expect(deck.data as unknown[]).toHaveLength(20);
    for (const card of deck.data as { distance_band: DistanceBand | null }[])
      expect(isWithinBand(card.distance_band!, DEMO_DISTANCE_BAND)).toBe(true);
    const firstCard = (deck.data as { compatibility_score: number; distance_band: string | null }[])[0]!;
    expect(firstCard.compatibility_score).toBeGreaterThanOrEqual(0);

    const photo = (likes.data as { liker_photos: string[] }[])[0]!.liker_photos[0]!;
    const file = await client.storage.from('profile-photos').download(photo);
    expect(file.error).toBeNull();
    const bytes = Buffer.from(await file.data!.arrayBuffer());
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');

    // Liking one back makes the match and its conversation through the SQL rules.
    const liker = (likes.data as { liker_id: string }[])[0]!.liker_id;
    const me = data.user!.id;
    const back = await client
      .from('user_interactions')
      .insert({ user_id: me, target_id: liker, interaction_type: 'like' });
    expect(back.error).toBeNull();
    const matches = await client.from('matches').select('id');
    expect(matches.data).toHaveLength(DEMO_MATCHES + 1);
  });

  it('gives the demo account matches and a conversation waiting for its answer', async () => {
    const client = createAnonClient(t);
    const { data } = await client.auth.signInWithPassword({ email: DEMO_EMAIL, password: first.password! });
    const me = data.user!.id;
    const conversations = await client
      .from('conversations')
      .select('id, match_id, last_message_at')
      .order('last_message_at', { ascending: false, nullsFirst: false });
    expect(conversations.error).toBeNull();
    // One per match (the one the test above made included); the first has the seeded messages.
    expect(conversations.data).toHaveLength(DEMO_MATCHES + 1);
    const talk = conversations.data![0]!;
    expect(talk.match_id).not.toBeNull();
    const messages = await client
      .from('messages')
      .select('sender_id, recipient_id, content, status, created_at')
      .eq('conversation_id', talk.id)
      .order('created_at');
    expect(messages.error).toBeNull();
    const rows = messages.data!;
    expect(rows.map((m) => m.content)).toEqual(DEMO_CONVERSATION.map((m) => m.text));
    expect(rows.map((m) => (m.sender_id === me ? 'demo' : 'match'))).toEqual(
      DEMO_CONVERSATION.map((m) => m.from),
    );
    // Dated as the conversation went, the last one the conversation's latest and not read yet.
    const times = rows.map((m) => Date.parse(m.created_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(new Set(times).size).toBe(times.length);
    expect(Date.parse(talk.last_message_at!)).toBe(times[times.length - 1]);
    expect(rows.map((m) => m.status)).toEqual(['read', 'read', 'sent']);
    expect(rows[rows.length - 1]!.recipient_id).toBe(me);
    // Her notifications of those messages say when they came, and only the unanswered one is unread.
    const notes = await t.db.query<{ at: Date; read: boolean }>(
      `select m.created_at as at, n.read_at is not null as read
       from public.notifications n join public.messages m on n.data->>'message_id' = m.id::text
       where n.user_id = $1 and n.type = 'message' order by m.created_at`,
      [me],
    );
    expect(notes.rows.map((n) => n.at.getTime())).toEqual(
      times.filter((_, i) => rows[i]!.recipient_id === me),
    );
    expect(notes.rows.map((n) => n.read)).toEqual([true, false]);
    const matchNotes = await t.db.query<{ same: boolean }>(
      `select n.created_at = mt.created_at as same from public.notifications n
       join public.matches mt on n.data->>'match_id' = mt.id::text where n.user_id = $1 and n.type = 'match'`,
      [me],
    );
    // The two seeded matches, dated two days back, and the one the test above made, dated now (both equal).
    expect(matchNotes.rows.map((n) => n.same)).toEqual([true, true, true]);
  });

  it('a new member in a big city (Berlin, Shanghai) with a 10-25 km band finds people nearby', async () => {
    for (const [name, place, gender, wants] of [
      ['Berlin', { city: 'Berlin', country: 'Germany', lat: 52.5, lng: 13.4 }, 'woman', 'man'],
      ['Shanghai', { city: 'Shanghai', country: 'China', lat: 31.2, lng: 121.5 }, 'man', 'woman'],
    ] as const) {
      const m = await createMember(t, name);
      await t.db.query(
        `update public.profiles set name = $2, birthday = '1994-05-05', gender = $3, looking_for = array[$4],
           city = $5, country = $6, location_lat = $7, location_lng = $8 where id = $1`,
        [m.id, name, gender, wants, place.city, place.country, place.lat, place.lng],
      );
      await t.db.query(
        `insert into public.match_preferences (user_id, min_age, max_age, genders, max_distance_band)
         values ($1, 25, 40, array[$2], '10-25 km')`,
        [m.id, wants],
      );
      const deck = await m.client.rpc('get_discovery_candidates', { limit_count: 20 });
      expect(deck.error).toBeNull();
      const cards = deck.data as { city: string; gender: string; photos: string[] }[];
      expect(cards.length).toBeGreaterThan(0);
      for (const c of cards) {
        expect(c.city).toBe(place.city);
        expect(c.gender).toBe(wants);
        expect(c.photos).toHaveLength(DEMO_PHOTOS_PER_MEMBER);
      }
    }
  });

  it('synthetic members cannot sign in (they have no password)', async () => {
    const client = createAnonClient(t);
    const r = await client.auth.signInWithPassword({
      email: 'member001@demo.heartsync.invalid',
      password: first.password!,
    });
    expect(r.error).not.toBeNull();
  });

  it('does nothing on a database that already has members, and prints the same credentials', async () => {
    const before = await count(t, `select count(*) from public.profiles`);
    const again = await seedDemoCommunity(t.server.ctx.db, { dataDir: t.dataDir });
    expect(again).toEqual({ seeded: false, email: DEMO_EMAIL, password: first.password });
    expect(await count(t, `select count(*) from public.profiles`)).toBe(before);
  });

  it('never seeds a database where real members already exist', async () => {
    const other = await startTestServer(kind);
    try {
      await createMember(other, 'Real');
      const r = await seedDemoCommunity(other.server.ctx.db, { dataDir: other.dataDir });
      expect(r).toEqual({ seeded: false });
      expect(await count(other, `select count(*) from public.profiles`)).toBe(1);
    } finally {
      await other.close();
    }
  }, 60_000);
});
