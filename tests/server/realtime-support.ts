// Helpers for the realtime tests: supabase-js clients over `ws`, member tokens, rows for member channels.
import crypto from 'node:crypto';
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { Queryable } from '../../server/db/database.ts';
import type { TestServer } from '../support/test-server.ts';

export interface Member {
  id: string;
  email: string;
  token: string;
}

/**
 * Signs an access token for a member (expiry in seconds, negative = expired). Without a session_id, so
 * the auth part's session check (which applies only to tokens that name a session) lets it through.
 */
export async function signMemberToken(t: TestServer, id: string, expiresInSeconds = 3600): Promise<string> {
  return t.server.ctx.keys.sign(
    {
      role: 'authenticated',
      sub: id,
      email: `${id}@example.test`,
      aud: 'authenticated',
    },
    expiresInSeconds,
  );
}

/** A member: an auth.users row (its profile comes from the sign-up trigger) and an access token. */
export async function createMember(t: TestServer): Promise<Member> {
  const id = crypto.randomUUID();
  const email = `${id}@example.test`;
  await t.db.query(`insert into auth.users (id, email, email_confirmed_at) values ($1, $2, now())`, [
    id,
    email,
  ]);
  return { id, email, token: await signMemberToken(t, id) };
}

/**
 * A supabase-js client whose realtime uses the given token (the anon key when none). The token is set
 * before returning, as an app does once its session is loaded, so the first join already carries it.
 */
export async function makeClient(t: TestServer, token?: string): Promise<SupabaseClient> {
  const client = createClient(t.url, t.anonKey, {
    accessToken: async () => token ?? t.anonKey,
    realtime: { transport: WebSocket as never, logLevel: 'error' },
  });
  await client.realtime.setAuth(token ?? t.anonKey);
  return client;
}

export type SubscribeOutcome = { status: string; error?: Error };

/** Subscribes and resolves with the first terminal status (SUBSCRIBED, CHANNEL_ERROR, TIMED_OUT, CLOSED). */
export function subscribe(channel: RealtimeChannel, timeoutMs = 5000): Promise<SubscribeOutcome> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ status: 'TEST_TIMEOUT' }), timeoutMs);
    channel.subscribe((status, error) => {
      clearTimeout(timer);
      resolve(error ? { status, error } : { status });
    }, timeoutMs);
  });
}

/** Polls until check() is truthy; throws with the label after timeoutMs. */
export async function waitFor<T>(
  label: string,
  check: () => T | undefined | false,
  timeoutMs = 2000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Stops a client's channels and socket without waiting for reconnect timers. */
export async function closeClient(client: SupabaseClient): Promise<void> {
  for (const channel of client.getChannels()) channel.teardown();
  await client.realtime.disconnect();
}

/** A raw WebSocket on the realtime endpoint (for frames supabase-js would never send). */
export function openRawSocket(t: TestServer, query = `apikey=${t.anonKey}&vsn=2.0.0`): Promise<WebSocket> {
  const ws = new WebSocket(`${t.url.replace('http', 'ws')}/realtime/v1/websocket?${query}`);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

/** Resolves with the close code once the socket is closed (by either side). */
export function waitForClose(ws: WebSocket, timeoutMs = 5000): Promise<number> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve(-1);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket did not close')), timeoutMs);
    ws.once('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/**
 * A match and its conversation between two members, written as the database owner in a transaction with
 * triggers off (`session_replication_role = replica`, pair_key by hand, 0060): what member channels need,
 * without the like flow. Returns the conversation's id.
 */
export async function insertMatchedConversation(tx: Queryable, a: string, b: string): Promise<string> {
  const [p1, p2] = [a, b].sort();
  const match = await tx.query<{ id: string }>(
    `insert into public.matches (user_id_1, user_id_2, pair_key) values ($1, $2, public.member_pair_key($1, $2)) returning id`,
    [p1, p2],
  );
  const conversation = await tx.query<{ id: string }>(
    `insert into public.conversations (match_id, participant1_id, participant2_id) values ($1, $2, $3) returning id`,
    [match.rows[0]!.id, p1, p2],
  );
  return conversation.rows[0]!.id;
}
