// Fixture for the REST tests: tables with RLS, a view and functions made by the tests themselves,
// and supabase-js clients acting as anon, two members and the service role.
import crypto from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import ws from 'ws';
import type { TestServer } from '../support/test-server.ts';

export const REST_FIXTURE_SQL = `
create table public.rest_notes (
  id uuid primary key default gen_random_uuid(),
  owner_id uuid not null,
  title text not null check (length(title) <= 200),
  body text,
  score int,
  tags text[] not null default '{}',
  meta jsonb,
  created_at timestamptz not null default now()
);
alter table public.rest_notes enable row level security;
-- A member sees their own notes and everyone's public ones (score >= 100); writes only their own.
create policy rest_notes_read on public.rest_notes for select using (owner_id = auth.uid() or score >= 100);
create policy rest_notes_insert on public.rest_notes for insert with check (owner_id = auth.uid());
create policy rest_notes_update on public.rest_notes for update using (owner_id = auth.uid()) with check (owner_id = auth.uid());
create policy rest_notes_delete on public.rest_notes for delete using (owner_id = auth.uid());

create table public.rest_tags (name text primary key, uses int not null default 0, label text);
alter table public.rest_tags enable row level security;
create policy rest_tags_read on public.rest_tags for select using (true);
create policy rest_tags_write on public.rest_tags for all to authenticated using (true) with check (true);

create table public.rest_authors (id uuid primary key, name text not null);
alter table public.rest_authors enable row level security;
create policy rest_authors_read on public.rest_authors for select using (true);
create table public.rest_books (
  id int primary key,
  author_id uuid not null references public.rest_authors (id),
  editor_id uuid references public.rest_authors (id),
  title text not null,
  hidden boolean not null default false
);
alter table public.rest_books enable row level security;
-- Hidden books are invisible to everyone but the service role, embedded or not.
create policy rest_books_read on public.rest_books for select using (not hidden);
insert into public.rest_authors values
  ('00000000-0000-4000-8000-000000000001', 'Ana'), ('00000000-0000-4000-8000-000000000002', 'Ben');
insert into public.rest_books values
  (1, '00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002', 'Alpha', false),
  (2, '00000000-0000-4000-8000-000000000001', null, 'Beta', false),
  (3, '00000000-0000-4000-8000-000000000001', null, 'Secret', true),
  (4, '00000000-0000-4000-8000-000000000002', null, 'Gamma', false);

create view public.rest_note_titles with (security_invoker = true) as
  select id, title, owner_id from public.rest_notes;

create function public.rest_add(a int, b int default 10) returns int language sql immutable as 'select a + b';
create function public.rest_whoami() returns json language sql stable as
  $$ select json_build_object('uid', auth.uid(), 'role', auth.role()) $$;
create function public.rest_fail(msg text) returns void language plpgsql as
  $$ begin raise exception '%', msg using hint = 'from rest_fail'; end $$;
create function public.rest_payment_required() returns void language plpgsql as
  $$ begin raise sqlstate 'PT402' using message = 'upgrade needed'; end $$;
create function public.rest_bump(note_id uuid) returns int language sql volatile as
  $$ update public.rest_notes set score = coalesce(score, 0) + 1 where id = note_id returning score $$;
create function public.rest_squares(x int) returns table(n int, sq int) language sql immutable as
  'select g, g * g from generate_series(1, x) g';
create function public.rest_words() returns setof text language sql immutable as
  $$ select unnest(array['alpha', 'beta', 'gamma']) $$;
create function public.rest_visible_notes(min_score int default 0) returns setof public.rest_notes
  language sql stable as 'select * from public.rest_notes where coalesce(score, 0) >= min_score';
create function public.rest_note(note_id uuid) returns public.rest_notes language sql stable as
  'select * from public.rest_notes where id = note_id';
create function public.rest_echo(payload jsonb) returns jsonb language sql immutable as 'select payload';
create function public.rest_tags_of(t text[]) returns int language sql immutable as 'select cardinality(t)';
-- The RPC statements prepared on the connection that runs it, its own call included (decision 0116).
create function public.rest_prepared_rpcs() returns setof text language sql stable as
  $$ select name from pg_prepared_statements where name like 'hs\\_rpc\\_%' $$;
-- Access mode as PostgREST's (decision 0090): a view that writes (a sequence's next value) and a stable
-- function that writes through a volatile one are refused on a read-only request.
create sequence public.rest_calls;
grant usage on sequence public.rest_calls to anon, authenticated;
create view public.rest_call_counter as select nextval('public.rest_calls') as n;
grant select on public.rest_call_counter to anon, authenticated;
create function public.rest_count_call() returns bigint language sql volatile as
  $$ select nextval('public.rest_calls') $$;
create function public.rest_stable_but_counts() returns bigint language plpgsql stable as
  $$ begin return public.rest_count_call(); end $$;
`;

export interface Member {
  id: string;
  email: string;
  client: SupabaseClient;
  token: string;
}

export function makeClient(t: TestServer, key: string, token?: string): SupabaseClient {
  return createClient(t.url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket; the REST tests never open one, but the client builds its realtime part.
    realtime: { transport: ws as never },
    ...(token ? { accessToken: async () => token } : {}),
  });
}

export async function makeMember(t: TestServer, name: string): Promise<Member> {
  const id = crypto.randomUUID();
  const email = `${name}-${id.slice(0, 8)}@example.test`;
  const token = await t.server.ctx.keys.sign(
    { role: 'authenticated', sub: id, email, aud: 'authenticated' } as never,
    3600,
  );
  return { id, email, token, client: makeClient(t, t.anonKey, token) };
}

/** Raw fetch with the anon key, for what supabase-js cannot express. */
export function restFetch(t: TestServer, path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (!headers.has('apikey')) headers.set('apikey', t.anonKey);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  return fetch(`${t.url}/rest/v1/${path}`, { ...init, headers });
}
