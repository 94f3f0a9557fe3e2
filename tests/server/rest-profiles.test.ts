// The REST API over the real migrated profiles tables: what RLS and column grants allow through /rest/v1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { getDatabaseKinds } from '../support/test-databases.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { makeClient, makeMember, type Member } from './rest-support.ts';

describe.each(getDatabaseKinds())('REST over the migrated profiles on %s', (kind) => {
  let t: TestServer;
  let anon: SupabaseClient;
  let a: Member;
  let b: Member;

  beforeAll(async () => {
    t = await startTestServer(kind);
    anon = makeClient(t, t.anonKey);
    a = await makeMember(t, 'amy');
    b = await makeMember(t, 'bo');
    // The sign-up trigger makes each member's profile row.
    for (const m of [a, b]) {
      await t.db.query(`insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3)`, [
        m.id,
        m.email,
        JSON.stringify({ name: m.email.split('-')[0] }),
      ]);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a member reads their own private profile, never another member row', async () => {
    const own = await a.client.from('profiles').select('id, email, name').eq('id', a.id).single();
    expect(own.error).toBeNull();
    expect(own.data).toEqual({ id: a.id, email: a.email, name: 'amy' });
    const other = await b.client.from('profiles').select('email, street_address, birthday').eq('id', a.id);
    expect(other.error).toBeNull();
    expect(other.data).toEqual([]);
    const all = await b.client.from('profiles').select('id');
    expect(all.data).toEqual([{ id: b.id }]);
  });

  it('anonymous callers are refused with 401', async () => {
    const r = await anon.from('profiles').select('id');
    expect(r.status).toBe(401);
    expect(r.error?.code).toBe('42501');
  });

  it('a member edits their own columns; not another member row, nor server-kept columns', async () => {
    const ok = await a.client
      .from('profiles')
      .update({ bio: 'Hi 😀\u202E' })
      .eq('id', a.id)
      .select('bio')
      .single();
    expect(ok.error).toBeNull();
    expect(ok.data).toEqual({ bio: 'Hi 😀\u202E' });
    const foreign = await b.client.from('profiles').update({ bio: 'owned' }).eq('id', a.id).select('id');
    expect(foreign.data).toEqual([]);
    const verified = await a.client.from('profiles').update({ is_verified: true }).eq('id', a.id);
    expect(verified.status).toBe(403);
    expect(verified.error?.code).toBe('42501');
    const email = await a.client.from('profiles').update({ email: 'x@example.test' }).eq('id', a.id);
    expect(email.status).toBe(403);
    const row = await t.db.query<{ bio: string; is_verified: boolean; email: string }>(
      `select bio, is_verified, email from public.profiles where id = $1`,
      [a.id],
    );
    expect(row.rows[0]).toEqual({ bio: 'Hi 😀\u202E', is_verified: false, email: a.email });
  });

  it('check constraints answer 400 with their SQLSTATE and change nothing', async () => {
    const r = await a.client.from('profiles').update({ location_lat: 91, location_lng: 0 }).eq('id', a.id);
    expect(r.status).toBe(400);
    expect(['23514', '22003']).toContain(r.error?.code);
    const pair = await a.client.from('profiles').update({ location_lat: 45 }).eq('id', a.id);
    expect(pair.status).toBe(400);
    expect(pair.error?.code).toBe('23514');
  });
});
