-- Likes and skips, blocks, reports, matches, conversations and messages. The rules that create
-- matches, limit likes and gate messages are in 0006 and 0007.

create table public.user_interactions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  target_id uuid not null references public.profiles (id) on delete cascade,
  interaction_type text not null check (interaction_type in ('like', 'skip')),
  created_at timestamptz not null default now(),
  unique (user_id, target_id),
  constraint user_interactions_not_self check (user_id <> target_id)
);
alter table public.user_interactions enable row level security;
create index user_interactions_target_idx on public.user_interactions (target_id, interaction_type, created_at desc);
create index user_interactions_user_time_idx on public.user_interactions (user_id, created_at desc);

create table public.blocked_users (
  id uuid primary key default gen_random_uuid(),
  blocker_id uuid not null references public.profiles (id) on delete cascade,
  blocked_id uuid not null references public.profiles (id) on delete cascade,
  reason text check (length(reason) <= 500),
  created_at timestamptz not null default now(),
  unique (blocker_id, blocked_id),
  constraint blocked_users_not_self check (blocker_id <> blocked_id)
);
alter table public.blocked_users enable row level security;
create index blocked_users_blocked_idx on public.blocked_users (blocked_id, blocker_id);

create table public.reports (
  id uuid primary key default gen_random_uuid(),
  reporter_id uuid not null references public.profiles (id) on delete cascade,
  reported_id uuid not null references public.profiles (id) on delete cascade,
  category text not null check (category in ('fake_profile', 'harassment', 'spam', 'underage', 'other')),
  details text not null default '' check (length(details) <= 2000),
  status text not null default 'pending' check (status in ('pending', 'reviewed', 'actioned', 'dismissed')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint reports_not_self check (reporter_id <> reported_id)
);
alter table public.reports enable row level security;
create index reports_pair_idx on public.reports (reporter_id, reported_id);
create index reports_reported_idx on public.reports (reported_id, reporter_id);
create index reports_pending_idx on public.reports (created_at) where status = 'pending';

create table public.matches (
  id uuid primary key default gen_random_uuid(),
  user_id_1 uuid not null references public.profiles (id) on delete cascade,
  user_id_2 uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  unique (user_id_1, user_id_2),
  constraint matches_ordered_pair check (user_id_1 < user_id_2)
);
alter table public.matches enable row level security;
create index matches_user_2_idx on public.matches (user_id_2);

create table public.conversations (
  id uuid primary key default gen_random_uuid(),
  -- Kept (null) when the match is removed, so the history stays readable but messaging ends.
  match_id uuid references public.matches (id) on delete set null,
  participant1_id uuid not null references public.profiles (id) on delete cascade,
  participant2_id uuid not null references public.profiles (id) on delete cascade,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_message_at timestamptz,
  unique (participant1_id, participant2_id),
  constraint conversations_ordered_pair check (participant1_id < participant2_id)
);
alter table public.conversations enable row level security;
create index conversations_participant2_idx on public.conversations (participant2_id);
create index conversations_match_idx on public.conversations (match_id);

create table public.messages (
  -- Made by the client, so a retried upload hits the primary key (23505) instead of duplicating.
  id uuid primary key,
  conversation_id uuid not null references public.conversations (id) on delete cascade,
  sender_id uuid not null references public.profiles (id) on delete cascade,
  recipient_id uuid not null references public.profiles (id) on delete cascade,
  content text not null check (length(content) <= 4000),
  type text not null default 'text' check (type in (
    'text', 'image', 'video_call_ring', 'video_call_answer', 'video_call_end', 'video_call_decline',
    'video_call_timeout', 'game_invite', 'game_result')),
  metadata jsonb not null default '{}'::jsonb
    check (jsonb_typeof(metadata) = 'object' and octet_length(metadata::text) <= 4000),
  status text not null default 'sent' check (status in ('sent', 'delivered', 'read')),
  created_at timestamptz not null default now(),
  delivered_at timestamptz,
  read_at timestamptz,
  constraint messages_not_self check (sender_id <> recipient_id),
  constraint messages_text_not_blank check (type <> 'text' or length(btrim(content)) > 0)
);
alter table public.messages enable row level security;
create index messages_conversation_idx on public.messages (conversation_id, created_at);
create index messages_sender_time_idx on public.messages (sender_id, created_at desc);
create index messages_recipient_status_idx on public.messages (recipient_id, status);

create trigger reports_set_updated_at before update on public.reports
  for each row execute function public.set_updated_at();
create trigger conversations_set_updated_at before update on public.conversations
  for each row execute function public.set_updated_at();

-- Whether two members must not see each other: a block or a report in either direction.
-- Security definer so policies can consult rows the caller may not read (the other side's block).
-- A member may only ask about pairs they belong to (anything else answers false), so the RPC
-- cannot be used to learn who blocked or reported whom; server contexts without a member ask freely.
create or replace function public.is_hidden_pair(a uuid, b uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select (auth.uid() is null or auth.uid() = a or auth.uid() = b) and (exists (
    select 1 from public.blocked_users bu
    where (bu.blocker_id = a and bu.blocked_id = b) or (bu.blocker_id = b and bu.blocked_id = a)
  ) or exists (
    select 1 from public.reports r
    where (r.reporter_id = a and r.reported_id = b) or (r.reporter_id = b and r.reported_id = a)
  ))
$$;
revoke execute on function public.is_hidden_pair(uuid, uuid) from public, anon;

-- Interactions: members insert their own (as themselves) and read what they sent and received.
-- No update or delete, so a like cannot be withdrawn to dodge the daily limit.
-- A skip is seen by the skipper only: nobody learns they were passed over.
create policy "user_interactions: members read sent and received" on public.user_interactions for select
  to authenticated
  using ((user_id = auth.uid() or (target_id = auth.uid() and interaction_type = 'like'))
    and not public.is_hidden_pair(user_id, target_id));
create policy "user_interactions: members insert their own" on public.user_interactions for insert
  to authenticated
  with check (user_id = auth.uid() and not public.is_hidden_pair(user_id, target_id));
revoke all on public.user_interactions from anon, authenticated;
grant select, insert on public.user_interactions to authenticated;

-- Blocks: the blocker alone sees and may lift their block; the blocked member is never told.
create policy "blocked_users: blocker reads" on public.blocked_users for select to authenticated
  using (blocker_id = auth.uid());
create policy "blocked_users: blocker inserts" on public.blocked_users for insert to authenticated
  with check (blocker_id = auth.uid());
create policy "blocked_users: blocker deletes" on public.blocked_users for delete to authenticated
  using (blocker_id = auth.uid());
revoke all on public.blocked_users from anon, authenticated;
grant select, insert, delete on public.blocked_users to authenticated;

-- Reports: filed as oneself, readable by the reporter, handled by the operator (service role).
create policy "reports: reporter reads" on public.reports for select to authenticated
  using (reporter_id = auth.uid());
create policy "reports: reporter inserts" on public.reports for insert to authenticated
  with check (reporter_id = auth.uid() and status = 'pending');
revoke all on public.reports from anon, authenticated;
grant select on public.reports to authenticated;
grant insert (reporter_id, reported_id, category, details) on public.reports to authenticated;

-- Matches exist only through the mutual-like trigger; members read theirs and may unmatch.
create policy "matches: members read theirs" on public.matches for select to authenticated
  using ((user_id_1 = auth.uid() or user_id_2 = auth.uid()) and not public.is_hidden_pair(user_id_1, user_id_2));
create policy "matches: members unmatch" on public.matches for delete to authenticated
  using (user_id_1 = auth.uid() or user_id_2 = auth.uid());
revoke all on public.matches from anon, authenticated;
grant select, delete on public.matches to authenticated;

create policy "conversations: participants read" on public.conversations for select to authenticated
  using ((participant1_id = auth.uid() or participant2_id = auth.uid())
    and not public.is_hidden_pair(participant1_id, participant2_id));
revoke all on public.conversations from anon, authenticated;
grant select on public.conversations to authenticated;

-- Whether sender may write to recipient in this conversation now: they are its two participants,
-- its match still exists and neither blocked or reported the other. A member may only ask about
-- conversations they are in (else false), so it reveals nothing about other members' matches.
create or replace function public.can_message(conversation uuid, sender uuid, recipient uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select (auth.uid() is null or auth.uid() = sender or auth.uid() = recipient) and exists (
    select 1
    from public.conversations c
    join public.matches m on m.id = c.match_id
    where c.id = conversation
      and sender <> recipient
      and least(sender, recipient) = c.participant1_id
      and greatest(sender, recipient) = c.participant2_id
  ) and not public.is_hidden_pair(sender, recipient)
$$;
revoke execute on function public.can_message(uuid, uuid, uuid) from public, anon;

-- Messages: the two participants read them; the sender writes as themselves where messaging is
-- allowed (status and timestamps it sends are reset by a trigger); the recipient only moves status
-- and its timestamps (column grants). Rate limits in 0007.
create policy "messages: participants read" on public.messages for select to authenticated
  using ((sender_id = auth.uid() or recipient_id = auth.uid()) and not public.is_hidden_pair(sender_id, recipient_id));
create policy "messages: sender inserts where allowed" on public.messages for insert to authenticated
  with check (sender_id = auth.uid() and status = 'sent' and public.can_message(conversation_id, sender_id, recipient_id));
create policy "messages: recipient updates status" on public.messages for update to authenticated
  using (recipient_id = auth.uid() and not public.is_hidden_pair(sender_id, recipient_id))
  with check (recipient_id = auth.uid());
revoke all on public.messages from anon, authenticated;
grant select on public.messages to authenticated;
grant insert (id, conversation_id, sender_id, recipient_id, content, type, metadata, status, created_at, delivered_at,
  read_at)
  on public.messages to authenticated;
grant update (status, delivered_at, read_at) on public.messages to authenticated;
