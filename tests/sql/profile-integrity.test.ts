// What a member may write into their own profile (issue 13): a location only on a listed city's cell and at
// most 5 moves a day (no trilateration from free coordinates), last_seen never in the future, photos only
// their own stored objects. The operator (service role) is not held to it.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asActor, member, serviceRole } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, expectSqlError } from './support/members.ts';

const ZURICH = { lat: 47.4, lng: 8.6 };
const LONDON = { lat: 51.5, lng: -0.1 };

describe.each(getDatabaseKinds())('member profile integrity on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  const move = (id: string, at: { lat: number; lng: number }) =>
    asActor(db, member(id), (tx) =>
      tx.query('update public.profiles set location_lat = $1, location_lng = $2 where id = $3', [
        at.lat,
        at.lng,
        id,
      ]),
    );
  const locationOf = async (id: string) =>
    (
      await db.query<{ lat: string | null; lng: string | null }>(
        'select location_lat::text as lat, location_lng::text as lng from public.profiles where id = $1',
        [id],
      )
    ).rows[0];

  it('a member can stand on a listed city, never on free coordinates between cities', async () => {
    const id = await createMember(db);
    await move(id, ZURICH);
    expect(await locationOf(id)).toEqual({ lat: '47.4', lng: '8.6' });
    // The cell just east of Zürich's: no listed place.
    await expectSqlError(move(id, { lat: 47.4, lng: 8.7 }), '23514', 'Please pick your city from the list.');
    await expectSqlError(move(id, { lat: 0.1, lng: -30.1 }), '23514', 'Please pick your city from the list.');
    expect(await locationOf(id)).toEqual({ lat: '47.4', lng: '8.6' });
    // Clearing the location is always allowed, and is no move.
    await asActor(db, member(id), (tx) =>
      tx.query('update public.profiles set location_lat = null, location_lng = null where id = $1', [id]),
    );
    expect(await locationOf(id)).toEqual({ lat: null, lng: null });
  });

  it('caps moves at 5 a day, while other edits of the profile go on', async () => {
    const id = await createMember(db);
    for (let i = 0; i < 5; i++) await move(id, i % 2 === 0 ? ZURICH : LONDON);
    await expectSqlError(move(id, LONDON), '23514', /up to 5 times a day/);
    expect(await locationOf(id)).toEqual({ lat: '47.4', lng: '8.6' });
    await asActor(db, member(id), (tx) =>
      tx.query("update public.profiles set bio = 'still here' where id = $1", [id]),
    );
    // A day later the member may move again.
    await db.query(
      "update public.member_location_changes set changed_at = now() - interval '25 hours' where user_id = $1",
      [id],
    );
    await move(id, LONDON);
    expect(await locationOf(id)).toEqual({ lat: '51.5', lng: '-0.1' });
  });

  it('the operator places members anywhere (seeds, support), unbounded', async () => {
    const id = await createMember(db);
    await asActor(db, serviceRole, (tx) =>
      tx.query('update public.profiles set location_lat = 47.4, location_lng = 8.7 where id = $1', [id]),
    );
    expect(await locationOf(id)).toEqual({ lat: '47.4', lng: '8.7' });
  });

  it('last_seen written in the future is stored as now', async () => {
    const id = await createMember(db);
    await asActor(db, member(id), (tx) =>
      tx.query("update public.profiles set last_seen = '2099-01-01T00:00:00Z' where id = $1", [id]),
    );
    const r = await db.query<{ ahead: boolean }>(
      "select last_seen <= now() + interval '1 minute' as ahead from public.profiles where id = $1",
      [id],
    );
    expect(r.rows[0]).toEqual({ ahead: true });
    const pub = await db.query<{ ok: boolean }>(
      "select coalesce(last_seen <= now() + interval '1 minute', true) as ok from public.public_profiles where id = $1",
      [id],
    );
    expect(pub.rows[0]).toEqual({ ok: true });
  });

  it("photos are only the member's own stored objects", async () => {
    const id = await createMember(db);
    const other = await createMember(db);
    const mine = `${id}/${crypto.randomUUID()}.jpg`;
    const theirs = `${other}/${crypto.randomUUID()}.jpg`;
    for (const [name, owner] of [
      [mine, id],
      [theirs, other],
    ] as const)
      await db.query(
        `insert into storage.objects (bucket_id, name, owner, owner_id) values ('profile-photos', $1, $2::uuid, $3)`,
        [name, owner, owner],
      );
    const setPhotos = (photos: string[]) =>
      asActor(db, member(id), (tx) =>
        tx.query('update public.profiles set photos = $1 where id = $2', [photos, id]),
      );
    await expectSqlError(setPhotos([theirs]), '23514', 'Photos must be ones you uploaded.');
    await expectSqlError(setPhotos(['https://evil.example/x.jpg']), '23514');
    await expectSqlError(setPhotos([`${id}/not-uploaded.jpg`]), '23514');
    await setPhotos([mine]);
    const r = await db.query<{ photos: string[] }>('select photos from public.profiles where id = $1', [id]);
    expect(r.rows[0]?.photos).toEqual([mine]);
  });
});
