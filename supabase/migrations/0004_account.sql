-- Account records: deletion requests, notifications, the security audit log and the newsletter.
-- Functions that use them (cancel, jobs, logging, subscribing) are in 0009.

create table public.account_deletion_requests (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'cancelled', 'completed')),
  requested_at timestamptz not null default now(),
  scheduled_for timestamptz not null default now() + interval '30 days',
  cancelled_at timestamptz,
  constraint account_deletion_requests_order check (scheduled_for >= requested_at)
);
alter table public.account_deletion_requests enable row level security;
-- At most one pending request per member.
create unique index account_deletion_requests_one_pending on public.account_deletion_requests (user_id)
  where status = 'pending';
create index account_deletion_requests_due_idx on public.account_deletion_requests (scheduled_for)
  where status = 'pending';
create policy "account_deletion_requests: owner reads" on public.account_deletion_requests for select
  to authenticated using (user_id = auth.uid());
revoke all on public.account_deletion_requests from anon, authenticated;
grant select on public.account_deletion_requests to authenticated;

create table public.notifications (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  type text not null check (type ~ '^[a-z][a-z0-9_]{0,39}$'),
  title text not null check (length(title) <= 200),
  body text not null default '' check (length(body) <= 1000),
  link text check (link ~ '^/[^/\\]' or link = '/'),
  data jsonb not null default '{}'::jsonb check (jsonb_typeof(data) = 'object'),
  read_at timestamptz,
  created_at timestamptz not null default now()
);
alter table public.notifications enable row level security;
create index notifications_user_idx on public.notifications (user_id, created_at desc);
create index notifications_unread_idx on public.notifications (user_id) where read_at is null;
create policy "notifications: owner reads" on public.notifications for select to authenticated
  using (user_id = auth.uid());
create policy "notifications: owner marks read" on public.notifications for update to authenticated
  using (user_id = auth.uid()) with check (user_id = auth.uid());
create policy "notifications: owner deletes" on public.notifications for delete to authenticated
  using (user_id = auth.uid());
revoke all on public.notifications from anon, authenticated;
grant select, delete on public.notifications to authenticated;
grant update (read_at) on public.notifications to authenticated;

create table public.security_events (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references auth.users (id) on delete set null,
  event text not null check (event ~ '^[a-z][a-z0-9_]{0,63}$'),
  details jsonb not null default '{}'::jsonb
    check (jsonb_typeof(details) = 'object' and octet_length(details::text) <= 2048),
  created_at timestamptz not null default now()
);
alter table public.security_events enable row level security;
create index security_events_user_idx on public.security_events (user_id, created_at desc);
create index security_events_time_idx on public.security_events (created_at desc);
-- No policies: written only through log_security_event(), read only by the service role.
revoke all on public.security_events from anon, authenticated;

create table public.newsletter_subscribers (
  id uuid primary key default gen_random_uuid(),
  email text not null check (length(email) <= 254),
  consented_at timestamptz not null default now(),
  created_at timestamptz not null default now()
);
alter table public.newsletter_subscribers enable row level security;
create unique index newsletter_subscribers_email_key on public.newsletter_subscribers (lower(email));
-- No policies: written only through subscribe_newsletter(), read only by the service role.
revoke all on public.newsletter_subscribers from anon, authenticated;
