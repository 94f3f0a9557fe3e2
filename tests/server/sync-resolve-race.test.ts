// A sync stream whose bucket set is being resolved while a change to it commits: the set's reads may predate the
// change, so the stream resolves again once it knows the set depends on it. Here a stream opens (its first
// resolve, which has used no parameter lookup yet), its read of the lookups answers, and only then, before the
// stream takes the answer, a like reaches Alice and its batch is handed to the streams. The liker's card is in a
// bucket that like opens: the real @powersync/node client must get it with no further change on the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../server/db/database.ts';
import type { CommittedBatch } from '../../server/sync/replicator.ts';
import { AppSchema } from '../../src/data/schema.ts';
import {
  RECEIVED_LIKES_SQL,
  receivedLikesParams,
  type ReceivedLikeRow,
} from '../../src/features/likes/likes-data.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { addInteraction, createMember } from '../sql/support/members.ts';
import { signMemberToken } from './realtime-support.ts';
import { openSyncClient, waitFor, type SyncClient } from './sync-support.ts';

describe.each(getDatabaseKinds())('a like committed while a stream resolves its buckets on %s', (kind) => {
  let t: TestServer;
  let client: SyncClient | undefined;

  beforeAll(async () => {
    t = await startTestServer(kind);
  });

  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it("reaches the replica with the liker's card", async () => {
    const alice = await createMember(t.db, { name: 'Alice' });
    const bob = await createMember(t.db, { name: 'Bob', profile: { birthday: '1991-02-03', city: 'Porto' } });
    const replicator = t.server.app.syncService!.replicator;
    await replicator.flush();

    // The new stream's first resolve reads the lookups of the rules' parameter queries one query at a time; its
    // read of "who liked Alice" (public_profile's third query) runs, and its answer is held.
    const likedBy = JSON.stringify(['public_profile', '3', alice]);
    let caught!: () => void;
    const readAnswered = new Promise<void>((resolve) => (caught = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const query = t.db.query.bind(t.db) as Queryable['query'];
    let armed = true;
    let opening: Promise<SyncClient> | undefined;
    t.db.query = (async (...args: Parameters<Queryable['query']>) => {
      const gated =
        armed &&
        (args[2] as { name?: string } | undefined)?.name === 'hs_sync_parameter_sets' &&
        (args[1]?.[0] as string[]).includes(likedBy);
      if (gated) armed = false;
      const result = await query(...args);
      if (gated) {
        caught();
        await released;
      }
      return result;
    }) as Queryable['query'];

    try {
      const token = await signMemberToken(t, alice);
      // The client's connect resolves once the stream says something: after the held answer is taken.
      opening = openSyncClient(t, AppSchema, async () => token);
      await Promise.race([
        readAnswered,
        new Promise((_, reject) =>
          setTimeout(
            () => reject(new Error(`no resolve read ${likedBy}: have the rules' parameter queries moved?`)),
            10_000,
          ).unref(),
        ),
      ]);
      // Bob likes Alice now, and the batch (which changes the lookup the stream just read) reaches the streams.
      const handedOut = new Promise<void>((resolve) => {
        const onBatch = (batch: CommittedBatch) => {
          if (!batch.parametersChanged) return;
          replicator.off('committed', onBatch);
          resolve();
        };
        replicator.on('committed', onBatch);
      });
      await addInteraction(t.db, bob, alice);
      await replicator.flush();
      await handedOut;
    } finally {
      t.db.query = query;
      release();
    }
    client = await opening;

    const likers = await waitFor(
      async () =>
        (await client!.db.getAll<ReceivedLikeRow>(RECEIVED_LIKES_SQL, receivedLikesParams(alice, 20))).map(
          (r) => `${r.liker_id} ${r.name} ${r.city}`,
        ),
      (rows) => rows.length > 0,
      10_000,
      20,
    );
    expect(likers).toEqual([`${bob} Bob Porto`]);
  });
});
