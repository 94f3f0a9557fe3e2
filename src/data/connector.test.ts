// The connector against the real server through supabase-js: what each CRUD operation sends, and how answers
// become applied / refused / retried; credentials never sign a member out.
import crypto from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import ws from 'ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signUpConfirmed } from '../../tests/server/auth-support.ts';
import { getDatabaseKinds } from '../../tests/support/test-databases.ts';
import { startTestServer, type TestServer } from '../../tests/support/test-server.ts';
import { RetryableUploadError, SupabaseConnector, uploadCrudEntry, type UploadRefusal } from './connector.ts';

type Entry = Parameters<typeof uploadCrudEntry>[1];

function makeClient(url: string, anonKey: string, token?: string): SupabaseClient {
  return createClient(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: ws as never },
    ...(token ? { accessToken: async () => token } : {}),
  });
}

/** A stand-in for the PowerSync database: one transaction whose completion is recorded. */
function makeQueue(crud: Entry[]) {
  const complete = vi.fn(async () => {});
  return {
    complete,
    db: { getNextCrudTransaction: async () => ({ crud, complete }) } as never,
  };
}

describe.each(getDatabaseKinds())('connector uploads on %s', (kind) => {
  let t: TestServer;
  let a: { id: string; client: SupabaseClient };
  let b: { id: string; client: SupabaseClient };

  async function makeMember(tag: string) {
    const email = `${tag}-${crypto.randomUUID().slice(0, 8)}@example.test`;
    const followed = await signUpConfirmed(t, email, 'Str0ng!Passw0rd', tag);
    const token = followed.fragment.get('access_token')!;
    const id = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sub as string;
    return { id, client: makeClient(t.url, t.anonKey, token) };
  }

  async function getBlocks(blockerId: string) {
    const { rows } = await t.db.query<{ id: string; blocked_id: string }>(
      'select id, blocked_id from public.blocked_users where blocker_id = $1',
      [blockerId],
    );
    return rows;
  }

  beforeAll(async () => {
    t = await startTestServer(kind);
    a = await makeMember('ada');
    b = await makeMember('bob');
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('a PUT inserts the row, and the same PUT again (a retried upload) counts as done', async () => {
    const id = crypto.randomUUID();
    const entry: Entry = {
      op: 'PUT' as never,
      table: 'blocked_users',
      id,
      opData: { blocker_id: a.id, blocked_id: b.id },
    };
    expect(await uploadCrudEntry(a.client, entry)).toEqual({ outcome: 'ok' });
    expect(await uploadCrudEntry(a.client, entry)).toEqual({ outcome: 'ok' });
    expect(await getBlocks(a.id)).toEqual([{ id, blocked_id: b.id }]);
    // Another device made the same logical row with another id: the unique key answers 23505, already applied.
    const twin = await uploadCrudEntry(a.client, { ...entry, id: crypto.randomUUID() });
    expect(twin.outcome).toBe('applied');
    expect(await getBlocks(a.id)).toHaveLength(1);

    const removed = await uploadCrudEntry(a.client, {
      op: 'DELETE' as never,
      table: 'blocked_users',
      id,
      opData: undefined,
    });
    expect(removed.outcome).toBe('ok');
    expect(await getBlocks(a.id)).toEqual([]);
  });

  it('a PATCH sends only the changed columns', async () => {
    const before = await t.db.query<{ name: string; city: string | null }>(
      'select name, city from public.profiles where id = $1',
      [a.id],
    );
    const result = await uploadCrudEntry(a.client, {
      op: 'PATCH' as never,
      table: 'profiles',
      id: a.id,
      opData: { bio: 'Loves hiking' },
    });
    expect(result).toEqual({ outcome: 'ok' });
    const { rows } = await t.db.query<{ name: string; city: string | null; bio: string }>(
      'select name, city, bio from public.profiles where id = $1',
      [a.id],
    );
    expect(rows[0]).toEqual({ ...before.rows[0], bio: 'Loves hiking' });
  });

  it('array columns kept as JSON text in the replica reach the server as arrays', async () => {
    const result = await uploadCrudEntry(a.client, {
      op: 'PATCH' as never,
      table: 'profiles',
      id: a.id,
      opData: { interests: JSON.stringify(['hiking', 'jazz']), languages: '["en","fr"]' },
    });
    expect(result).toEqual({ outcome: 'ok' });
    const { rows } = await t.db.query<{ interests: string[]; languages: string[] }>(
      'select interests, languages from public.profiles where id = $1',
      [a.id],
    );
    expect(rows[0]).toEqual({ interests: ['hiking', 'jazz'], languages: ['en', 'fr'] });
  });

  it('a write the server forbids is refused, not retried, and changes nothing', async () => {
    // Ada cannot block on Bob's behalf (RLS), nor change the e-mail column (no grant).
    const forged = await uploadCrudEntry(a.client, {
      op: 'PUT' as never,
      table: 'blocked_users',
      id: crypto.randomUUID(),
      opData: { blocker_id: b.id, blocked_id: a.id },
    });
    expect(forged.outcome).toBe('refused');
    expect(forged.error?.code).toBe('42501');
    const email = await uploadCrudEntry(a.client, {
      op: 'PATCH' as never,
      table: 'profiles',
      id: a.id,
      opData: { email: 'stolen@example.test' },
    });
    expect(email.outcome).toBe('refused');
    const bad = await uploadCrudEntry(a.client, {
      op: 'PUT' as never,
      table: 'blocked_users',
      id: 'not-a-uuid',
      opData: { blocker_id: a.id, blocked_id: b.id },
    });
    expect(bad.outcome).toBe('refused');
    expect(await getBlocks(b.id)).toEqual([]);
    expect(await getBlocks(a.id)).toEqual([]);
  });

  it('a write sent without a member (the moment a device is signed out) is retried, not dropped, and changes nothing', async () => {
    const signedOut = makeClient(t.url, t.anonKey);
    const id = crypto.randomUUID();
    const r = await uploadCrudEntry(signedOut, {
      op: 'PUT' as never,
      table: 'blocked_users',
      id,
      opData: { blocker_id: a.id, blocked_id: b.id },
    });
    expect(r.outcome).toBe('retry');
    expect(r.error).toMatchObject({ code: '42501', status: 401 });
    expect((await getBlocks(a.id)).map((x) => x.id)).not.toContain(id);
  });

  it('uploadData completes the transaction past a refusal and tells the member once', async () => {
    const refusals: UploadRefusal[] = [];
    const connector = new SupabaseConnector({
      getSupabase: async () => a.client,
      getEndpoint: async () => t.url,
      onRefused: (r) => refusals.push(r),
    });
    const kept = crypto.randomUUID();
    const queue = makeQueue([
      {
        op: 'PUT' as never,
        table: 'blocked_users',
        id: crypto.randomUUID(),
        opData: { blocker_id: b.id, blocked_id: a.id },
      },
      {
        op: 'PUT' as never,
        table: 'blocked_users',
        id: kept,
        opData: { blocker_id: a.id, blocked_id: b.id },
      },
    ]);
    await connector.uploadData(queue.db);
    expect(queue.complete).toHaveBeenCalledTimes(1);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatchObject({ table: 'blocked_users', title: 'We could not save your block' });
    expect(await getBlocks(a.id)).toEqual([{ id: kept, blocked_id: b.id }]);
  });

  it('a token of a session ended elsewhere: the write stays queued and the session is renewed, never dropped', async () => {
    const email = `dee-${crypto.randomUUID().slice(0, 8)}@example.test`;
    await signUpConfirmed(t, email, 'Str0ng!Passw0rd', 'dee');
    // This device's client, signed in with its own session (as the app's is).
    const client = createClient(t.url, t.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: ws as never },
    });
    const signedIn = await client.auth.signInWithPassword({ email, password: 'Str0ng!Passw0rd' });
    expect(signedIn.error).toBeNull();
    const me = signedIn.data.user!.id;
    // Signed out everywhere from another device: this device's token is no longer accepted.
    const out = await fetch(`${t.url}/auth/v1/logout?scope=global`, {
      method: 'POST',
      headers: { apikey: t.anonKey, authorization: `Bearer ${signedIn.data.session!.access_token}` },
    });
    expect(out.status).toBe(204);
    const refresh = vi.spyOn(client.auth, 'refreshSession');
    const connector = new SupabaseConnector({
      getSupabase: async () => client,
      getEndpoint: async () => t.url,
      onRefused: () => {
        throw new Error('a write must not be dropped for the credentials');
      },
      sleep: async () => {},
    });
    const queue = makeQueue([
      {
        op: 'PUT' as never,
        table: 'blocked_users',
        id: crypto.randomUUID(),
        opData: { blocker_id: me, blocked_id: a.id },
      },
    ]);
    await expect(connector.uploadData(queue.db)).rejects.toBeInstanceOf(RetryableUploadError);
    expect(queue.complete).not.toHaveBeenCalled();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(await getBlocks(me)).toEqual([]);
  });

  it('uploadData keeps the transaction when the server is unreachable, backing off 1 s doubling', async () => {
    const sleeps: number[] = [];
    const offline = makeClient('http://127.0.0.1:9', t.anonKey, 'x.y.z');
    const connector = new SupabaseConnector({
      getSupabase: async () => offline,
      getEndpoint: async () => t.url,
      onRefused: () => {
        throw new Error('nothing may be refused while offline');
      },
      sleep: async (ms) => void sleeps.push(ms),
    });
    const queue = makeQueue([
      {
        op: 'PUT' as never,
        table: 'blocked_users',
        id: crypto.randomUUID(),
        opData: { blocker_id: a.id, blocked_id: b.id },
      },
    ]);
    for (let i = 0; i < 5; i++)
      await expect(connector.uploadData(queue.db)).rejects.toBeInstanceOf(RetryableUploadError);
    expect(queue.complete).not.toHaveBeenCalled();
    // PowerSync waits 1 s itself after each failure; the connector adds the rest: 1, 2, 4, 8 s between attempts.
    expect(sleeps).toEqual([1000, 3000, 7000]);
  });
});

describe('fetchCredentials', () => {
  function connectorWith(getSession: () => Promise<unknown>) {
    const signOut = vi.fn();
    const supabase = { auth: { getSession, signOut } } as unknown as SupabaseClient;
    const connector = new SupabaseConnector({
      getSupabase: async () => supabase,
      getEndpoint: async () => 'https://sync.example.test',
      onRefused: () => {},
    });
    return { connector, signOut };
  }

  it('hands the session token and the sync endpoint to PowerSync', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    const { connector } = connectorWith(async () => ({
      data: { session: { access_token: 'tok', expires_at: expiresAt } },
      error: null,
    }));
    expect(await connector.fetchCredentials()).toEqual({
      endpoint: 'https://sync.example.test',
      token: 'tok',
      expiresAt: new Date(expiresAt * 1000),
    });
  });

  it('returns null when nobody is signed in', async () => {
    const { connector } = connectorWith(async () => ({ data: { session: null }, error: null }));
    expect(await connector.fetchCredentials()).toBeNull();
  });

  it('offline with an expired token: a retryable error, and the member stays signed in', async () => {
    const stale = connectorWith(async () => ({
      data: { session: { access_token: 'old', expires_at: Math.floor(Date.now() / 1000) - 60 } },
      error: null,
    }));
    await expect(stale.connector.fetchCredentials()).rejects.toBeInstanceOf(RetryableUploadError);
    expect(stale.signOut).not.toHaveBeenCalled();
    const failing = connectorWith(async () => ({
      data: { session: null },
      error: { name: 'AuthRetryableFetchError', message: 'Failed to fetch' },
    }));
    await expect(failing.connector.fetchCredentials()).rejects.toBeInstanceOf(RetryableUploadError);
    expect(failing.signOut).not.toHaveBeenCalled();
  });
});
