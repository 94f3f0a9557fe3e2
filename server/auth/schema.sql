-- platform-sql: before migrations
-- The self-contained auth service's own tables (sessions, refresh tokens, one-time mail-link tokens)
-- and the mail queue/outbox. Idempotent: applied at every boot before the migrations. Never applied on
-- Supabase, whose GoTrue keeps its own. No API role is granted anything here: only the server reads them.

create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  -- How the session was opened: password, otp (sign-up link) or recovery (reset link).
  amr_method text not null,
  aal text not null default 'aal1',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  refreshed_at timestamptz,
  user_agent text,
  ip text
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);

-- One row per refresh token ever issued; a session's rows form its rotation family.
create table if not exists auth.refresh_tokens (
  id bigserial primary key,
  token_hash text not null unique,
  user_id uuid not null references auth.users (id) on delete cascade,
  session_id uuid not null references auth.sessions (id) on delete cascade,
  parent_hash text,
  revoked boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists refresh_tokens_session_id_idx on auth.refresh_tokens (session_id);

-- Mailed links (sign-up confirmation, recovery): only the sha256 of the token is kept; single use.
create table if not exists auth.one_time_tokens (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type text not null check (token_type in ('signup', 'recovery')),
  token_hash text not null unique,
  -- The password chosen at this sign-up, applied when this link is the one confirmed (see decisions).
  password_hash text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index if not exists one_time_tokens_user_id_idx on auth.one_time_tokens (user_id);
-- Account pre-hijacking (issue 13): each sign-up link remembers the browser that asked for it (a hash of
-- the sign-up binding cookie); the account remembers the browser that created it, and is contested when
-- another browser signs up or asks for a link again before the address is confirmed. Confirming a contested
-- account keeps a password only when the clicking browser chose it (decision 0054).
alter table auth.one_time_tokens add column if not exists binding_hash text;
create table if not exists auth.signup_bindings (
  user_id uuid primary key references auth.users (id) on delete cascade,
  binding_hash text not null,
  contested boolean not null default false
);

create schema if not exists mail;

-- Every mail the server sends: the outbox in development, the retry queue when SMTP is configured.
create table if not exists mail.messages (
  id uuid primary key,
  to_address text not null,
  subject text not null,
  text_body text not null,
  html_body text not null,
  -- stored: outbox only (no SMTP); pending: waiting for (re)delivery; sent; failed: gave up.
  status text not null check (status in ('stored', 'pending', 'sent', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz
);
create index if not exists messages_pending_idx on mail.messages (next_attempt_at) where status = 'pending';

revoke all on auth.sessions, auth.refresh_tokens, auth.one_time_tokens from anon, authenticated;
revoke all on schema mail from anon, authenticated;

-- Opens a session in one round trip (a password sign-in or a mailed link): the session row, its first
-- refresh token, the user's last sign-in time and, when p_event is given, a row in
-- public.security_events; answers the user's columns as updated. Recording the event never fails the
-- sign-in: its error comes back in event_error, for the server's log.
create or replace function auth.open_session(
  p_session_id uuid,
  p_user_id uuid,
  p_amr_method text,
  p_user_agent text,
  p_ip text,
  p_refresh_token_hash text,
  p_event text default null,
  p_event_details jsonb default null
) returns table (
  id uuid, email varchar, encrypted_password varchar, email_confirmed_at timestamptz,
  confirmation_sent_at timestamptz, recovery_sent_at timestamptz, last_sign_in_at timestamptz,
  raw_app_meta_data jsonb, raw_user_meta_data jsonb, created_at timestamptz, updated_at timestamptz,
  banned_until timestamptz, deleted_at timestamptz, event_error text
)
language plpgsql set search_path = '' as $$
#variable_conflict use_column
declare
  v_event_error text;
begin
  insert into auth.sessions (id, user_id, amr_method, user_agent, ip)
  values (p_session_id, p_user_id, p_amr_method, p_user_agent, p_ip);
  insert into auth.refresh_tokens (token_hash, user_id, session_id)
  values (p_refresh_token_hash, p_user_id, p_session_id);
  if p_event is not null then
    begin
      insert into public.security_events (event, details, user_id)
      values (p_event, coalesce(p_event_details, '{}'::jsonb), p_user_id);
    exception when others then
      v_event_error := sqlerrm;
    end;
  end if;
  return query
    update auth.users u set last_sign_in_at = now(), updated_at = now()
    where u.id = p_user_id
    returning u.id, u.email, u.encrypted_password, u.email_confirmed_at, u.confirmation_sent_at,
      u.recovery_sent_at, u.last_sign_in_at, u.raw_app_meta_data, u.raw_user_meta_data, u.created_at,
      u.updated_at, u.banned_until, u.deleted_at, v_event_error;
end;
$$;
revoke all on function auth.open_session(uuid, uuid, text, text, text, text, text, jsonb)
  from public, anon, authenticated, service_role;
