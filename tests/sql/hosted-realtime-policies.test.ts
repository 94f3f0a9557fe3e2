// The hosted Supabase Realtime rules (0125): on a database with a realtime schema (made here as Supabase has
// it: realtime.messages under row-level security, realtime.topic() naming the channel being joined), a member
// receives and sends only on their own conversation:, call: and game: channels, online-users needs a
// session, public: is open. Without that schema (PGlite, plain PostgreSQL) the migration does nothing.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymous, asActor, member, type Actor } from '../support/as-role.ts';
import { createTestDatabase, getDatabaseKinds, type TestDatabase } from '../support/test-databases.ts';
import { createMember, grantPremium, makeMatch } from './support/members.ts';

const MIGRATION = fs.readFileSync(
  new URL('../../supabase/migrations/0125_hosted_realtime_policies.sql', import.meta.url),
  'utf8',
);

describe.each(getDatabaseKinds())('hosted realtime policies on %s', (kind) => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(kind);
    await db.exec(`
      create schema realtime;
      create table realtime.messages (id bigserial primary key, topic text not null, payload jsonb);
      alter table realtime.messages enable row level security;
      grant usage on schema realtime to anon, authenticated;
      grant select, insert on realtime.messages to anon, authenticated;
      grant usage on sequence realtime.messages_id_seq to anon, authenticated;
      create function realtime.topic() returns text language sql stable
        as $$ select nullif(current_setting('realtime.topic', true), '') $$;
      grant execute on function realtime.topic() to anon, authenticated;
      insert into realtime.messages (topic) values ('any');
    `);
    await db.exec(MIGRATION);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  /** Whether `actor` may receive on (select) and send to (insert) `topic`. */
  async function allowed(actor: Actor, topic: string): Promise<{ receive: boolean; send: boolean }> {
    return asActor(db, actor, async (tx) => {
      await tx.query(`select set_config('realtime.topic', $1, true)`, [topic]);
      const seen = await tx.query<{ n: number }>('select count(*)::int n from realtime.messages');
      let send = true;
      await tx.query('savepoint s');
      try {
        await tx.query(`insert into realtime.messages (topic) values ($1)`, [topic]);
      } catch {
        send = false;
      }
      await tx.query('rollback to savepoint s');
      return { receive: (seen.rows[0]?.n ?? 0) > 0, send };
    });
  }

  it('a call channel is for its two members only; others, anonymous callers and bad names are refused', async () => {
    const a = await createMember(db);
    const m = await createMember(db);
    const stranger = await createMember(db);
    const { conversationId } = await makeMatch(db, a, m);
    await grantPremium(db, a);
    await grantPremium(db, m);
    const call = await asActor(db, member(a), (tx) =>
      tx.query<{ id: string }>(
        `insert into public.video_calls (caller_id, recipient_id, provider) values ($1, $2, 'webrtc') returning id`,
        [a, m],
      ),
    );
    const callId = call.rows[0]!.id;
    const both = { receive: true, send: true };
    const none = { receive: false, send: false };
    for (const who of [a, m]) {
      expect(await allowed(member(who), `call:${callId}`)).toEqual(both);
      expect(await allowed(member(who), `conversation:${conversationId}`)).toEqual(both);
    }
    expect(await allowed(member(stranger), `call:${callId}`)).toEqual(none);
    expect(await allowed(member(stranger), `conversation:${conversationId}`)).toEqual(none);
    expect(await allowed(anonymous, `call:${callId}`)).toEqual(none);
    expect(await allowed(member(a), `call:not-a-uuid`)).toEqual(none);
    expect(await allowed(member(a), `call:${crypto.randomUUID()}`)).toEqual(none);
    expect(await allowed(member(a), 'elsewhere')).toEqual(none);
  });

  it('online-users needs a session; public channels are open', async () => {
    const a = await createMember(db);
    expect(await allowed(member(a), 'online-users')).toEqual({ receive: true, send: true });
    expect(await allowed(anonymous, 'online-users')).toEqual({ receive: false, send: false });
    expect(await allowed(anonymous, 'public:lobby')).toEqual({ receive: true, send: true });
  });
});
