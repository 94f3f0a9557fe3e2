import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, asActor, member } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { addInteraction, createMember, expectSqlError, updateRow } from './support/members.ts';

const PRIVATE_KEYS = [
  'email',
  'birthday',
  'street_address',
  'zip_code',
  'location_lat',
  'location_lng',
  'state',
];

describe.each(getDatabaseKinds())('profiles on %s', (kind) => {
  let db: TestDatabase;
  let ada: string;
  let ben: string;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    ada = await createMember(db, {
      name: 'Ada Lovelace',
      email: 'ada@example.test',
      profile: {
        birthday: '1990-06-15',
        street_address: '1 Secret Lane',
        zip_code: '75001',
        state: 'IDF',
        city: 'Paris',
        country: 'France',
        location_lat: 48.856613,
        location_lng: 2.352222,
        bio: 'Engines',
        gender: 'woman',
        last_seen: new Date().toISOString(),
      },
    });
    ben = await createMember(db, { name: 'Ben' });
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it('sign-up makes a profile named from the metadata, with angle brackets escaped and ends trimmed', async () => {
    const id = await createMember(db, { name: '  <script>alert(1)</script> Eve  ' });
    const r = await db.query<{ name: string }>('select name from public.profiles where id = $1', [id]);
    expect(r.rows[0]?.name).toBe('&lt;script&gt;alert(1)&lt;/script&gt; Eve');
  });

  it('the public projection has first name, age and public fields but no private field', async () => {
    const r = await asActor(db, member(ben), (tx) =>
      tx.query<Record<string, unknown>>('select * from public.public_profiles where id = $1', [ada]),
    );
    const row = r.rows[0];
    expect(row).toBeDefined();
    expect(row?.['name']).toBe('Ada');
    const expectedAge =
      new Date().getFullYear() - 1990 - (new Date() < new Date(new Date().getFullYear(), 5, 15) ? 1 : 0);
    expect(row?.['age']).toBe(expectedAge);
    expect(row?.['city']).toBe('Paris');
    for (const key of PRIVATE_KEYS) expect(Object.keys(row ?? {})).not.toContain(key);
    expect(JSON.stringify(row)).not.toMatch(/Secret Lane|75001|ada@example|1990-06-15|48\.9/);
  });

  it('another member cannot read the private row by any filter', async () => {
    const r = await asActor(db, member(ben), (tx) =>
      tx.query('select * from public.profiles where id = $1 or email = $2', [ada, 'ada@example.test']),
    );
    expect(r.rows).toEqual([]);
    const own = await asActor(db, member(ada), (tx) =>
      tx.query<{ email: string }>('select email from public.profiles where id = $1', [ada]),
    );
    expect(own.rows[0]?.email).toBe('ada@example.test');
  });

  it('anonymous callers read no profile at all', async () => {
    await expectSqlError(
      asActor(db, anonymous, (tx) => tx.query('select * from public.profiles')),
      '42501',
    );
    await expectSqlError(
      asActor(db, anonymous, (tx) => tx.query('select * from public.public_profiles')),
      '42501',
    );
  });

  it('the coarse position is snapped to the 0.1 degree grid', async () => {
    const r = await db.query<{ lat: string; lng: string }>(
      'select location_lat::text lat, location_lng::text lng from public.profiles where id = $1',
      [ada],
    );
    expect(r.rows[0]).toEqual({ lat: '48.9', lng: '2.4' });
  });

  it('a member cannot set their email, verified flag or id, nor edit someone else', async () => {
    for (const column of ['email', 'is_verified', 'id', 'created_at']) {
      await expectSqlError(
        asActor(db, member(ben), (tx) =>
          tx.query(`update public.profiles set ${column} = ${column} where id = $1`, [ben]),
        ),
        '42501',
      );
    }
    const r = await asActor(db, member(ben), (tx) =>
      tx.query('update public.profiles set bio = $2 where id = $1 returning id', [ada, 'hacked']),
    );
    expect(r.rows).toEqual([]);
    const bio = await db.query<{ bio: string }>('select bio from public.profiles where id = $1', [ada]);
    expect(bio.rows[0]?.bio).toBe('Engines');
  });

  it('an owner edit reaches the public projection, and last_seen hides when online status is hidden', async () => {
    await asActor(db, member(ada), (tx) =>
      tx.query('update public.profiles set bio = $2, show_online_status = false where id = $1', [
        ada,
        'Poetry',
      ]),
    );
    const r = await asActor(db, member(ben), (tx) =>
      tx.query<{ bio: string; last_seen: Date | null }>(
        'select bio, last_seen from public.public_profiles where id = $1',
        [ada],
      ),
    );
    expect(r.rows[0]).toEqual({ bio: 'Poetry', last_seen: null });
    await updateRow(db, 'profiles', 'id', ada, { show_online_status: true });
  });

  it('a private change leaves the public card as it was (nothing to send again); a public one rewrites it', async () => {
    const cleo = await createMember(db, { name: 'Cleo', profile: { show_online_status: false } });
    const card = async () =>
      (
        await db.query<{ updated_at: Date; bio: string | null }>(
          'select updated_at, bio from public.public_profiles where id = $1',
          [cleo],
        )
      ).rows[0]!;
    const before = await card();
    // Likes seen, a new zip code, last_seen while the online status is hidden: none of it is on the card.
    for (const [column, value] of [
      ['likes_seen_at', new Date().toISOString()],
      ['zip_code', '1000'],
      ['last_seen', new Date().toISOString()],
    ] as const) {
      await asActor(db, member(cleo), (tx) =>
        tx.query(`update public.profiles set ${column} = $2 where id = $1`, [cleo, value]),
      );
    }
    expect(await card()).toEqual(before);
    await asActor(db, member(cleo), (tx) =>
      tx.query('update public.profiles set bio = $2 where id = $1', [cleo, 'Ceramics']),
    );
    const after = await card();
    expect(after.bio).toBe('Ceramics');
    expect(after.updated_at.getTime()).toBeGreaterThan(before.updated_at.getTime());
  });

  it("likes_seen_at a member writes is never ahead of the server's clock and never goes back", async () => {
    const dora = await createMember(db, { name: 'Dora' });
    const write = (value: string | null) =>
      asActor(db, member(dora), (tx) =>
        tx.query('update public.profiles set likes_seen_at = $2 where id = $1', [dora, value]),
      );
    const read = async () =>
      (
        await db.query<{ seen: Date | null; now: Date }>(
          'select likes_seen_at as seen, now() as now from public.profiles where id = $1',
          [dora],
        )
      ).rows[0]!;
    // A device clock a day ahead: kept as the server's now.
    await write(new Date(Date.now() + 86_400_000).toISOString());
    const clamped = await read();
    expect(clamped.seen!.getTime()).toBeLessThanOrEqual(clamped.now.getTime());
    expect(clamped.seen!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // An older value (another device, back online late) and a null leave it as it was.
    await write(new Date(Date.now() - 3_600_000).toISOString());
    expect((await read()).seen).toEqual(clamped.seen);
    await write(null);
    expect((await read()).seen).toEqual(clamped.seen);
    // mark_likes_seen, the REST clients' way, still moves it on (compared in microseconds, by the database).
    const { rows } = await db.query<{ seen: string }>(
      'select likes_seen_at::text as seen from public.profiles where id = $1',
      [dora],
    );
    await asActor(db, member(dora), (tx) => tx.query('select public.mark_likes_seen()'));
    const later = await db.query<{ later: boolean }>(
      'select likes_seen_at > $2::timestamptz as later from public.profiles where id = $1',
      [dora, rows[0]!.seen],
    );
    expect(later.rows[0]?.later).toBe(true);
  });

  it('an e-mail change in auth reaches the private profile', async () => {
    const id = await createMember(db, { email: 'old@example.test' });
    await db.query(`update auth.users set email = 'new@example.test' where id = $1`, [id]);
    const r = await db.query<{ email: string }>('select email from public.profiles where id = $1', [id]);
    expect(r.rows[0]?.email).toBe('new@example.test');
  });

  it('refresh_public_profile_ages is a service job that corrects stale ages', async () => {
    await db.query('update public.public_profiles set age = 5 where id = $1', [ada]);
    await expectSqlError(
      asActor(db, member(ada), (tx) => tx.query('select public.refresh_public_profile_ages()')),
      '42501',
    );
    const r = await asActor(db, { role: 'service_role' }, (tx) =>
      tx.query<{ n: number }>('select public.refresh_public_profile_ages() n'),
    );
    expect(r.rows[0]?.n).toBeGreaterThanOrEqual(1);
    const age = await db.query<{ age: number }>('select age from public.public_profiles where id = $1', [
      ada,
    ]);
    expect(age.rows[0]?.age).toBeGreaterThan(30);
  });

  it('members under 18 are refused', async () => {
    const tooYoung = new Date();
    tooYoung.setFullYear(tooYoung.getFullYear() - 17);
    await expectSqlError(
      asActor(db, member(ben), (tx) =>
        tx.query('update public.profiles set birthday = $2 where id = $1', [
          ben,
          tooYoung.toISOString().slice(0, 10),
        ]),
      ),
      '23514',
    );
  });

  it('a block or a report hides the public profile both ways', async () => {
    const cy = await createMember(db, { name: 'Cy' });
    const dee = await createMember(db, { name: 'Dee' });
    const see = (viewer: string, target: string) =>
      asActor(db, member(viewer), (tx) =>
        tx.query('select id from public.public_profiles where id = $1', [target]),
      ).then((r) => r.rows.length);
    expect(await see(ada, cy)).toBe(1);
    await asActor(db, member(cy), (tx) =>
      tx.query('insert into public.blocked_users (blocker_id, blocked_id, reason) values ($1, $2, $3)', [
        cy,
        ada,
        'x',
      ]),
    );
    expect(await see(ada, cy)).toBe(0);
    expect(await see(cy, ada)).toBe(0);
    expect(await see(dee, ada)).toBe(1);
    await asActor(db, member(dee), (tx) =>
      tx.query(
        `insert into public.reports (reporter_id, reported_id, category, details) values ($1, $2, 'spam', 'ads')`,
        [dee, ada],
      ),
    );
    expect(await see(dee, ada)).toBe(0);
    expect(await see(ada, dee)).toBe(0);
    const status = await db.query<{ status: string }>(
      'select status from public.reports where reporter_id = $1',
      [dee],
    );
    expect(status.rows[0]?.status).toBe('pending');
  });

  it('a liker sees only public fields of the liked member through get_received_likes', async () => {
    const fan = await createMember(db, {
      name: 'Fan Club',
      profile: { street_address: 'Hidden 9', city: 'Lyon' },
    });
    await addInteraction(db, fan, ben);
    const r = await asActor(db, member(ben), (tx) =>
      tx.query<Record<string, unknown>>('select * from public.get_received_likes(20, 0)'),
    );
    const row = r.rows.find((x) => x['liker_id'] === fan);
    expect(row).toMatchObject({ name: 'Fan', city: 'Lyon' });
    for (const key of PRIVATE_KEYS) expect(Object.keys(row ?? {})).not.toContain(key);
    expect(JSON.stringify(r.rows)).not.toContain('Hidden 9');
  });
});

describe.each(getDatabaseKinds())('pausing on %s', (kind) => {
  let db: TestDatabase;
  let ada: string;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    ada = await createMember(db, { name: 'Ada' });
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const readPause = async () =>
    (
      await db.query<{ is_paused: boolean; pause_end_date: Date | null }>(
        'select is_paused, pause_end_date from public.profiles where id = $1',
        [ada],
      )
    ).rows[0];

  it('pause_account accepts the five durations and sets the end date', async () => {
    for (const [duration, days] of [
      ['1-week', 7],
      ['1-month', 28],
      ['3-months', 89],
      ['6-months', 180],
      ['1-year', 365],
    ] as const) {
      await asActor(db, member(ada), (tx) => tx.query('select public.pause_account($1)', [duration]));
      const p = await readPause();
      expect(p?.is_paused).toBe(true);
      const daysAhead = ((p?.pause_end_date?.getTime() ?? 0) - Date.now()) / 86_400_000;
      expect(daysAhead).toBeGreaterThan(days - 1);
      expect(daysAhead).toBeLessThan(days + 4);
    }
  });

  it('any other duration is refused with "Invalid pause duration" and changes nothing', async () => {
    await asActor(db, member(ada), (tx) => tx.query('select public.reactivate_account()'));
    for (const bad of ['2-weeks', '', '1 week', "1-week'; --"]) {
      await expectSqlError(
        asActor(db, member(ada), (tx) => tx.query('select public.pause_account($1)', [bad])),
        '22023',
        'Invalid pause duration',
      );
    }
    expect(await readPause()).toEqual({ is_paused: false, pause_end_date: null });
  });

  it('account functions refuse anonymous callers with "Not authenticated"', async () => {
    for (const sql of [
      "select public.pause_account('1-week')",
      'select public.reactivate_account()',
      'select public.reactivate_expired_pause()',
      'select * from public.get_account_deletion_status()',
      'select public.cancel_account_deletion()',
      'select * from public.get_received_likes(20, 0)',
      'select public.get_unread_likes_count()',
      'select public.mark_likes_seen()',
      'select * from public.get_discovery_candidates()',
    ]) {
      await expectSqlError(
        asActor(db, anonymous, (tx) => tx.query(sql)),
        '28000',
        'Not authenticated',
      );
    }
  });

  it('reactivate_expired_pause ends only a pause whose end date has passed', async () => {
    await asActor(db, member(ada), (tx) => tx.query("select public.pause_account('1-week')"));
    const notYet = await asActor(db, member(ada), (tx) =>
      tx.query<{ r: boolean }>('select public.reactivate_expired_pause() r'),
    );
    expect(notYet.rows[0]?.r).toBe(false);
    expect((await readPause())?.is_paused).toBe(true);
    await updateRow(db, 'profiles', 'id', ada, { pause_end_date: new Date(Date.now() - 1000).toISOString() });
    const done = await asActor(db, member(ada), (tx) =>
      tx.query<{ r: boolean }>('select public.reactivate_expired_pause() r'),
    );
    expect(done.rows[0]?.r).toBe(true);
    expect(await readPause()).toEqual({ is_paused: false, pause_end_date: null });
  });

  it('expire_account_pauses is a service job that clears every expired pause', async () => {
    await expectSqlError(
      asActor(db, member(ada), (tx) => tx.query('select public.expire_account_pauses()')),
      '42501',
    );
    await updateRow(db, 'profiles', 'id', ada, {
      is_paused: true,
      pause_end_date: new Date(Date.now() - 1000).toISOString(),
    });
    const r = await asActor(db, { role: 'service_role' }, (tx) =>
      tx.query<{ n: number }>('select public.expire_account_pauses() n'),
    );
    expect(r.rows[0]?.n).toBeGreaterThanOrEqual(1);
    expect((await readPause())?.is_paused).toBe(false);
  });
});
