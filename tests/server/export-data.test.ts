// export-data: the caller's whole account as a JSON file, with other members only through public fields.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../fixtures/members.ts';
import { makeMatch, updateRow } from '../sql/support/members.ts';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

// Each marker is text no export could hold by chance (a plain '99999' once matched the digits of a timestamp).
const PRIVATE_MARKERS = {
  street_address: '12 Secret Lane',
  zip_code: 'ZIP-Q7X3K',
  birthday: '1990-02-03',
  location_lat: 48.123456,
  location_lng: 11.654321,
};

describe.each(getDatabaseKinds())('export-data on %s', (kind) => {
  let t: TestServer;
  let ann: TestMember;
  let bob: TestMember;
  let cat: TestMember;
  let annBobConversation: string;

  const callExport = (token?: string, method = 'POST') =>
    fetch(`${t.url}/functions/v1/export-data`, {
      method,
      headers: { apikey: t.anonKey, authorization: `Bearer ${token ?? t.anonKey}` },
    });

  async function send(from: TestMember, to: TestMember, conversationId: string, content: string) {
    const { error } = await from.client.from('messages').insert({
      id: crypto.randomUUID(),
      conversation_id: conversationId,
      sender_id: from.id,
      recipient_id: to.id,
      content,
      type: 'text',
      status: 'sent',
    });
    if (error) throw new Error(error.message);
  }

  beforeAll(async () => {
    t = await startTestServer(kind);
    ann = await createMember(t, 'Ann');
    bob = await createMember(t, 'Bob');
    cat = await createMember(t, 'Cat');
    await updateRow(t.db, 'profiles', 'id', ann.id, { street_address: '1 Ann Street', bio: 'Ann bio' });
    for (const m of [bob, cat]) await updateRow(t.db, 'profiles', 'id', m.id, PRIVATE_MARKERS);
    annBobConversation = (await makeMatch(t.db, ann.id, bob.id)).conversationId;
    const bobCat = (await makeMatch(t.db, bob.id, cat.id)).conversationId;
    await send(ann, bob, annBobConversation, 'ann to bob: hello');
    await send(bob, ann, annBobConversation, 'bob to ann: hi');
    await send(bob, cat, bobCat, 'bob to cat: not for ann');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses callers without a session and other methods, exporting nothing', async () => {
    const anon = await callExport();
    expect(anon.status).toBe(401);
    expect(await anon.json()).toEqual({ success: false, error: 'Not authenticated' });
    expect((await callExport('not-a-token')).status).toBe(401);
    const get = await callExport(ann.accessToken, 'GET');
    expect(get.status).toBe(405);
  });

  it("answers a JSON file with the member's own data and messages", async () => {
    const res = await callExport(ann.accessToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="heartsync-export-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const doc = (await res.json()) as Record<string, unknown> & {
      account: { id: string; email: string };
      profile: Record<string, unknown>;
      messages: { content: string }[];
      matches: unknown[];
      conversations: unknown[];
      notifications: { type: string }[];
      likes_sent: { target_id: string }[];
      likes_received: { user_id: string }[];
      other_members: Record<string, unknown>[];
    };
    expect(doc.account).toEqual({ id: ann.id, email: ann.email });
    expect(doc.profile).toMatchObject({ id: ann.id, street_address: '1 Ann Street', bio: 'Ann bio' });
    expect(doc.messages.map((m) => m.content).sort()).toEqual(['ann to bob: hello', 'bob to ann: hi']);
    expect(doc.matches).toHaveLength(1);
    expect(doc.conversations).toHaveLength(1);
    expect(doc.likes_sent.map((l) => l.target_id)).toEqual([bob.id]);
    expect(doc.likes_received.map((l) => l.user_id)).toEqual([bob.id]);
    expect(doc.notifications.map((n) => n.type).sort()).toEqual(['like', 'match', 'message']);
    expect(doc.other_members.map((m) => m['id'])).toEqual([bob.id]);
    expect(doc.other_members[0]?.['name']).toBe('Bob');
  });

  it("contains nothing of another member's private fields or conversations", async () => {
    const text = await (await callExport(ann.accessToken)).text();
    for (const value of Object.values(PRIVATE_MARKERS)) expect(text).not.toContain(String(value));
    expect(text).not.toContain(bob.email);
    expect(text).not.toContain(cat.email);
    expect(text).not.toContain(cat.id);
    expect(text).not.toContain('not for ann');
    const doc = JSON.parse(text) as { other_members: Record<string, unknown>[] };
    for (const other of doc.other_members)
      for (const key of ['email', 'street_address', 'zip_code', 'birthday', 'location_lat', 'last_seen'])
        expect(other).not.toHaveProperty(key);
  });

  it('pages past the 1000-row read cap', async () => {
    await t.db.query(
      `insert into public.notifications (user_id, type, title, body, link)
       select $1, 'system', 'n' || g, 'body', '/notifications' from generate_series(1, 1005) g`,
      [cat.id],
    );
    const doc = (await (await callExport(cat.accessToken)).json()) as { notifications: unknown[] };
    expect(doc.notifications.length).toBeGreaterThan(1005);
  });
});
