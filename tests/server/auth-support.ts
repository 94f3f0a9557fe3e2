// Helpers for the auth tests: a supabase-js client as the PWA makes it, the outbox, and mailed links.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import ws from 'ws';
import type { TestServer } from '../support/test-server.ts';

export function createAuthClient(t: { url: string; anonKey: string }, key = t.anonKey): SupabaseClient {
  // Node 20 has no WebSocket: supabase-js builds a realtime client even when only auth is used.
  return createClient(t.url, key, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
  });
}

export interface OutboxMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  status: string;
  attempts: number;
  created_at: string;
}

export async function getOutbox(t: TestServer): Promise<OutboxMessage[]> {
  const res = await fetch(`${t.url}/_outbox/messages.json`);
  if (!res.ok) throw new Error(`outbox answered ${res.status}`);
  return (await res.json()) as OutboxMessage[];
}

export async function getMailsTo(t: TestServer, to: string): Promise<OutboxMessage[]> {
  return (await getOutbox(t)).filter((m) => m.to === to);
}

/**
 * The mails to that address once there are at least `count` (newest first). Recovery and resent links are
 * mailed after the answer (its timing must not tell a registered address), so a test waits for them.
 */
export async function waitForMails(t: TestServer, to: string, count: number): Promise<OutboxMessage[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    const mails = await getMailsTo(t, to);
    if (mails.length >= count) return mails;
    if (Date.now() > until) throw new Error(`${mails.length} of ${count} mails to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The verify link of the newest mail of that type to that address, waiting for it up to 10 s. */
export async function getLatestLink(t: TestServer, to: string, type: 'signup' | 'recovery'): Promise<string> {
  const until = Date.now() + 10_000;
  for (;;) {
    for (const m of await getMailsTo(t, to)) {
      const link = findVerifyLink(m.text, type);
      if (link) return link;
    }
    if (Date.now() > until) throw new Error(`no ${type} mail to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function findVerifyLink(text: string, type: 'signup' | 'recovery'): string | undefined {
  for (const match of text.matchAll(/https?:\/\/\S+/g)) {
    const url = new URL(match[0]);
    if (url.pathname === '/auth/v1/verify' && url.searchParams.get('type') === type) return url.toString();
  }
  return undefined;
}

export interface FollowedLink {
  status: number;
  location: URL;
  fragment: URLSearchParams;
  body: string;
}

/** Opens a mailed link like a browser would, without following the redirect (with that browser's cookies). */
export async function followLink(link: string, cookie?: string): Promise<FollowedLink> {
  const res = await fetch(link, { redirect: 'manual', ...(cookie ? { headers: { cookie } } : {}) });
  const location = new URL(res.headers.get('location') ?? 'about:blank');
  return {
    status: res.status,
    location,
    fragment: new URLSearchParams(location.hash.replace(/^#/, '')),
    body: await res.text(),
  };
}

let counter = 0;
export function makeEmail(prefix = 'member'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.test`;
}

/** Signs up through supabase-js and confirms through the mailed link; returns the fragment's tokens. */
export async function signUpConfirmed(t: TestServer, email: string, password: string, name = 'Test Member') {
  const client = createAuthClient(t);
  const { error } = await client.auth.signUp({
    email,
    password,
    options: { data: { name }, emailRedirectTo: `${t.url}/auth/callback?type=signup` },
  });
  if (error) throw error;
  const followed = await followLink(await getLatestLink(t, email, 'signup'));
  if (!followed.fragment.get('access_token'))
    throw new Error(`confirmation failed: ${followed.location.toString()}`);
  return followed;
}

/**
 * A browser for auth journeys: it keeps the cookies the auth server sets (the sign-up binding), so a sign-up
 * and the click on its mailed link can come from the same browser or from two different ones.
 */
export function makeBrowser(t: { url: string; anonKey: string }) {
  let cookie = '';
  const keep = (res: Response) => {
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0]!;
  };
  return {
    async signUp(
      email: string,
      password: string,
    ): Promise<{ status: number; user: Record<string, unknown> }> {
      const res = await fetch(`${t.url}/auth/v1/signup`, {
        method: 'POST',
        headers: { apikey: t.anonKey, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ email, password }),
      });
      keep(res);
      return { status: res.status, user: (await res.json()) as Record<string, unknown> };
    },
    async resend(email: string): Promise<number> {
      const res = await fetch(`${t.url}/auth/v1/resend`, {
        method: 'POST',
        headers: { apikey: t.anonKey, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ type: 'signup', email }),
      });
      keep(res);
      await res.arrayBuffer();
      return res.status;
    },
    follow: (link: string) => followLink(link, cookie || undefined),
  };
}

/** A member signed in through supabase-js, as functions see members (findCaller checks the session). */
export async function createSignedInMember(
  t: TestServer,
  tag = 'member',
): Promise<{ id: string; email: string; token: string }> {
  const email = makeEmail(tag);
  await signUpConfirmed(t, email, 'Correct-Horse-Battery-9');
  const { data, error } = await createAuthClient(t).auth.signInWithPassword({
    email,
    password: 'Correct-Horse-Battery-9',
  });
  if (error || !data.session) throw error ?? new Error('no session');
  return { id: data.user.id, email, token: data.session.access_token };
}
