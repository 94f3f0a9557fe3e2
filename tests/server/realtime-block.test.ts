// A block ends what two members share in realtime at once (issue 13): the blocked member, already joined to
// the conversation's channel, is put out of it and exchanges nothing more; on online-users neither sees the
// other any longer, and a later join does not show them either.
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import {
  closeClient,
  createMember,
  insertMatchedConversation,
  makeClient,
  subscribe,
  waitFor,
  type Member,
} from './realtime-support.ts';

describe.each(getDatabaseKinds())('realtime after a block on %s', (kind) => {
  let t: TestServer;
  let ann: Member;
  let kim: Member;
  let bystander: Member;
  let conversationId: string;
  const clients: SupabaseClient[] = [];
  const client = async (token: string) => {
    const c = await makeClient(t, token);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    t = await startTestServer(kind);
    ann = await createMember(t);
    kim = await createMember(t);
    bystander = await createMember(t);
    await t.db.query('update public.profiles set show_online_status = true where id = any($1::uuid[])', [
      [ann.id, kim.id, bystander.id],
    ]);
    conversationId = await t.db.transaction(async (tx) => {
      await tx.exec(`set local session_replication_role = replica`);
      return insertMatchedConversation(tx, ann.id, kim.id);
    });
  });
  afterAll(async () => {
    await Promise.all(clients.splice(0).map(closeClient));
    await t?.close();
  });

  async function online(member: Member): Promise<RealtimeChannel> {
    const ch = (await client(member.token)).channel('online-users', {
      config: { presence: { key: member.id } },
    });
    ch.on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(ch)).status).toBe('SUBSCRIBED');
    expect(await ch.track({ userId: member.id, lastActivity: 'now' })).toBe('ok');
    return ch;
  }

  it('puts the blocked member out of the conversation channel and of the blocker presence, at once', async () => {
    const topic = `conversation:${conversationId}`;
    const annChat = (await client(ann.token)).channel(topic, { config: { private: true } });
    const kimChat = (await client(kim.token)).channel(topic, { config: { private: true } });
    const annGot: unknown[] = [];
    annChat.on('broadcast', { event: 'typing' }, (m) => annGot.push(m['payload']));
    const kimStatuses: string[] = [];
    expect((await subscribe(annChat)).status).toBe('SUBSCRIBED');
    kimChat.subscribe((status) => kimStatuses.push(status));
    await waitFor('kim joined', () => kimStatuses.includes('SUBSCRIBED'));
    await kimChat.send({ type: 'broadcast', event: 'typing', payload: { n: 1 } });
    await waitFor('ann receives kim before the block', () => annGot.length === 1);

    const annOnline = await online(ann);
    const kimOnline = await online(kim);
    const watcher = await online(bystander);
    await waitFor('kim sees ann online', () => kimOnline.presenceState()[ann.id]);
    await waitFor('ann sees kim online', () => annOnline.presenceState()[kim.id]);

    // Ann blocks Kim through the API, as the app does.
    const res = await fetch(`${t.url}/rest/v1/blocked_users`, {
      method: 'POST',
      headers: {
        apikey: t.anonKey,
        authorization: `Bearer ${ann.token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ blocker_id: ann.id, blocked_id: kim.id }),
    });
    expect(res.status).toBe(201);

    await waitFor('kim is put out of the conversation channel', () =>
      kimStatuses.some((s) => s === 'CHANNEL_ERROR' || s === 'CLOSED'),
    );
    await waitFor('kim no longer sees ann online', () => !kimOnline.presenceState()[ann.id]);
    await waitFor('ann no longer sees kim online', () => !annOnline.presenceState()[kim.id]);
    // Others still see both.
    expect(watcher.presenceState()[ann.id]).toBeTruthy();
    expect(watcher.presenceState()[kim.id]).toBeTruthy();

    // A fresh join of the conversation is refused, and a new online-users join does not show Ann to Kim.
    const again = await subscribe((await client(kim.token)).channel(topic, { config: { private: true } }));
    expect(again.status).toBe('CHANNEL_ERROR');
    const kimLater = (await client(kim.token)).channel('online-users', {
      config: { presence: { key: kim.id } },
    });
    kimLater.on('presence', { event: 'sync' }, () => {});
    expect((await subscribe(kimLater)).status).toBe('SUBSCRIBED');
    await waitFor('kim sees the bystander', () => kimLater.presenceState()[bystander.id]);
    expect(kimLater.presenceState()[ann.id]).toBeUndefined();
    // Ann re-tracking (her 10 s refresh with news) still does not reach Kim.
    expect(await annOnline.track({ userId: ann.id, lastActivity: 'later', status: 'busy' })).toBe('ok');
    await waitFor('the bystander sees the change', () =>
      (watcher.presenceState()[ann.id] as { status?: string }[] | undefined)?.some(
        (m) => m.status === 'busy',
      ),
    );
    expect(kimLater.presenceState()[ann.id]).toBeUndefined();
    expect(kimOnline.presenceState()[ann.id]).toBeUndefined();
    // Nothing Kim sent after the block reached Ann.
    expect(annGot).toEqual([{ n: 1 }]);
  });
});
