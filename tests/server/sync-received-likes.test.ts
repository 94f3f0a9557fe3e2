// The likes page reads the likes received from the replica (decision 0106): with the app's own schema and a
// real @powersync/node client against the real rules and server, the page's query answers what the server's
// get_received_likes answers (the same likers, cards and order), leaves out a like this device answered and
// has not uploaded yet, and picks up a new like as it syncs. The Likes badge is counted on the replica too, and
// "seen" is a write to the member's row there that uploads through the app's own upload step (decision 0109).
import { createClient } from '@supabase/supabase-js';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AbstractPowerSyncDatabase } from '@powersync/node';
import { uploadCrudEntry } from '../../src/data/connector.ts';
import { AppSchema } from '../../src/data/schema.ts';
import {
  markLikesSeen,
  RECEIVED_LIKES_SQL,
  UNREAD_LIKES_SQL,
  unreadLikesParams,
  receivedLikesParams,
  toReceivedLike,
  type ReceivedLike,
  type ReceivedLikeRow,
} from '../../src/features/likes/likes-data.ts';
import { asActor, member } from '../support/as-role.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { addInteraction, createMember, updateRow } from '../sql/support/members.ts';
import { signMemberToken } from './realtime-support.ts';
import { openSyncClient, waitFor, type SyncClient } from './sync-support.ts';

describe.each(getDatabaseKinds())('the likes received on a replica on %s', (kind) => {
  let t: TestServer;
  let alice: string;
  const likers: Record<string, string> = {};
  let client: SyncClient;
  let gus: string;
  let hal: string;
  // This device uploads its writes until the last case, which needs one kept waiting (as offline).
  let uploading = true;

  /** The page's first `limit` likes, as cards. */
  async function readPage(limit = 20): Promise<ReceivedLike[]> {
    const rows = await client.db.getAll<ReceivedLikeRow>(
      RECEIVED_LIKES_SQL,
      receivedLikesParams(alice, limit),
    );
    return rows.map(toReceivedLike);
  }

  /** The server's answer to Alice, in the same shape (times compared as instants). */
  async function askServer(): Promise<ReceivedLike[]> {
    const result = await asActor(t.db, member(alice), (tx) =>
      tx.query<ReceivedLike & { created_at: string | Date }>(
        'select * from public.get_received_likes(20, 0)',
      ),
    );
    return result.rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
  }

  /** The Likes badge on this device, and the server's count for REST clients. */
  const countOnDevice = async () =>
    (await client.db.get<{ n: number }>(UNREAD_LIKES_SQL, unreadLikesParams(alice))).n;
  const countOnServer = async () =>
    (
      await asActor(t.db, member(alice), (tx) =>
        tx.query<{ n: number }>('select public.get_unread_likes_count() as n'),
      )
    ).rows[0]?.n;

  const asInstants = (likes: ReceivedLike[]) =>
    likes.map((l) => ({ ...l, created_at: new Date(l.created_at).toISOString() }));

  beforeAll(async () => {
    t = await startTestServer(kind);
    alice = await createMember(t.db, { name: 'Alice' });
    // Five members like Alice, one after another (Bob first): Bob with words, interests, photos and a badge.
    for (const name of ['Bob', 'Carol', 'Dave', 'Erin', 'Fay']) {
      likers[name] = await createMember(t.db, {
        name,
        profile: { birthday: '1992-03-04', city: 'Lisbon' },
      });
    }
    await updateRow(t.db, 'profiles', 'id', likers['Bob'], {
      bio: 'Sails on weekends.',
      interests: ['sailing', 'jazz'],
      photos: [`${likers['Bob']}/one.jpg`, `${likers['Bob']}/two.jpg`],
      is_verified: true,
    });
    for (const name of ['Bob', 'Carol', 'Dave', 'Erin', 'Fay']) {
      await addInteraction(t.db, likers[name]!, alice);
    }
    // Alice skipped Carol (on another device, uploaded) and blocked Dave: neither is listed any more.
    await addInteraction(t.db, alice, likers['Carol']!, 'skip');
    await asActor(t.db, member(alice), (tx) =>
      tx.query('insert into public.blocked_users (blocker_id, blocked_id) values ($1, $2)', [
        alice,
        likers['Dave'],
      ]),
    );
    // Writes upload as the app's connector sends them: one entry at a time through supabase-js.
    const token = await signMemberToken(t, alice);
    const rest = createClient(t.url, t.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
      accessToken: async () => token,
    });
    const upload = async (db: AbstractPowerSyncDatabase) => {
      if (!uploading) return;
      const transaction = await db.getNextCrudTransaction();
      if (!transaction) return;
      for (const entry of transaction.crud) {
        const { outcome, error } = await uploadCrudEntry(rest, entry);
        if (outcome !== 'ok') throw new Error(`upload ${outcome}: ${JSON.stringify(error)}`);
      }
      await transaction.complete();
    };
    client = await openSyncClient(t, AppSchema, async () => token, upload);
    await client.db.waitForFirstSync();
  });

  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it("answers what the server's get_received_likes answers: likers, cards and order", async () => {
    const server = await askServer();
    expect(server.map((l) => l.liker_id)).toEqual([likers['Fay'], likers['Erin'], likers['Bob']]);
    const page = await waitFor(readPage, (p) => p.length === server.length, 15_000, 20);
    expect(asInstants(page)).toEqual(server);
    const bob = page.find((l) => l.liker_id === likers['Bob']);
    expect(bob).toMatchObject({
      name: 'Bob',
      city: 'Lisbon',
      bio: 'Sails on weekends.',
      interests: ['sailing', 'jazz'],
      liker_photos: [`${likers['Bob']}/one.jpg`, `${likers['Bob']}/two.jpg`],
      is_verified: true,
    });
    expect(bob?.age).toBeGreaterThan(30);
    // A page of one is the newest like.
    expect((await readPage(1)).map((l) => l.liker_id)).toEqual([likers['Fay']]);
  });

  it('lists a new like, with its card, once it syncs', async () => {
    gus = await createMember(t.db, { name: 'Gus', profile: { city: 'Porto' } });
    await addInteraction(t.db, gus, alice);
    const page = await waitFor(readPage, (p) => p[0]?.liker_id === gus, 15_000, 20);
    expect(page[0]).toMatchObject({ name: 'Gus', city: 'Porto', liker_photos: [], is_verified: false });
    expect(page.map((l) => l.liker_id)).toEqual([gus, likers['Fay'], likers['Erin'], likers['Bob']]);
  });

  it("syncs a liker's card without last_seen: an online liker's minute costs no op, a new bio does (decision 0111)", async () => {
    const bob = likers['Bob']!;
    const cardOps = async () =>
      Number(
        (
          await t.db.query<{ n: string }>(`select count(*) as n from heartsync_sync.ops where bucket = $1`, [
            `public_profile[${JSON.stringify(bob)}]`,
          ])
        ).rows[0]?.n,
      );
    const replicator = t.server.app.syncService!.replicator;
    await replicator.flush();
    const before = await cardOps();
    expect(before).toBeGreaterThan(0);
    // Bob's presence keeps his last_seen (shown: his online status is on), twice: his public card changes on the
    // server, and no op goes to the members who hold it.
    for (const minutes of [2, 1]) {
      await updateRow(t.db, 'profiles', 'id', bob, {
        show_online_status: true,
        last_seen: new Date(Date.now() - minutes * 60_000).toISOString(),
      });
      await replicator.flush();
    }
    const shown = await t.db.query<{ last_seen: unknown }>(
      'select last_seen from public.public_profiles where id = $1',
      [bob],
    );
    expect(shown.rows[0]?.last_seen).not.toBeNull();
    expect(await cardOps()).toBe(before);
    // A field the card shows sends it again, and the device has it; last_seen and updated_at are not on it.
    await updateRow(t.db, 'profiles', 'id', bob, { bio: 'Sails on weekends, sings on Sundays.' });
    await replicator.flush();
    expect(await cardOps()).toBe(before + 1);
    const card = await waitFor(
      () =>
        client.db.getOptional<{ bio: string; last_seen: string | null; updated_at: string | null }>(
          'select bio, last_seen, updated_at from public_profiles where id = ?',
          [bob],
        ),
      (row) => row?.bio === 'Sails on weekends, sings on Sundays.',
      15_000,
      20,
    );
    expect(card).toEqual({ bio: 'Sails on weekends, sings on Sundays.', last_seen: null, updated_at: null });
  });

  it('counts the likes new since the member last looked; "seen" clears it on the device at once and uploads', async () => {
    // Nothing seen yet: the four likes listed are new, on the device as on the server.
    expect(await countOnDevice()).toBe(4);
    expect(await countOnServer()).toBe(4);
    await markLikesSeen(client.db, alice);
    expect(await countOnDevice()).toBe(0);
    await waitFor(countOnServer, (n) => n === 0, 15_000, 20);
    // The server's own time came back, and it still covers every like (no badge comes back).
    await waitFor(
      async () => (await client.db.get<{ n: number }>('select count(*) as n from ps_crud')).n,
      (n) => n === 0,
    );
    expect(await countOnDevice()).toBe(0);
    // Looking again with nothing new writes nothing.
    await markLikesSeen(client.db, alice);
    expect((await client.db.get<{ n: number }>('select count(*) as n from ps_crud')).n).toBe(0);
    // A like after that is new on both.
    hal = await createMember(t.db, { name: 'Hal', profile: { city: 'Faro' } });
    await addInteraction(t.db, hal, alice);
    expect(await waitFor(countOnDevice, (n) => n === 1, 15_000, 20)).toBe(1);
    expect(await countOnServer()).toBe(1);
    // A device whose clock runs an hour behind still covers the like it listed: it keeps the like's own time.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 3_600_000 });
    try {
      await markLikesSeen(client.db, alice);
    } finally {
      vi.useRealTimers();
    }
    expect(await countOnDevice()).toBe(0);
    await waitFor(countOnServer, (n) => n === 0, 15_000, 20);
  });

  // Last: a write waiting to upload holds back the next checkpoints (the SDK applies none over local changes).
  it('leaves out a like this device answered and has not uploaded yet', async () => {
    uploading = false;
    await client.db.execute(
      `insert into user_interactions (id, user_id, target_id, interaction_type, created_at)
       values (?, ?, ?, 'like', ?)`,
      [crypto.randomUUID(), alice, likers['Fay'], new Date().toISOString()],
    );
    expect((await readPage(3)).map((l) => l.liker_id)).toEqual([hal, gus, likers['Erin']]);
    // The server still lists Fay: the answer is this device's alone until it uploads.
    expect((await askServer()).map((l) => l.liker_id)).toContain(likers['Fay']);
  });
});
