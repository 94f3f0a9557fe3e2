-- Blocked members, for the blocker's own list in Account settings (where Unblock is). A blocked member's
-- public profile is hidden from the blocker like from everyone they block (is_hidden_pair), so the list
-- cannot read their name through public_profiles: this function reads it for the blocker's own blocks only,
-- the first name alone (as every card shows it), never a photo, a place or anything else of theirs.
-- `reported`: the blocker also reported them, so the pair stays hidden after an unblock (is_hidden_pair); only
-- the blocker's own reports count, never whether the blocked member reported the blocker.
-- Unblocking is the delete the blocker was always allowed (0003's policy), through the replica.
create or replace function public.get_blocked_members()
returns table (blocked_id uuid, name text, blocked_at timestamptz, reported boolean)
language sql stable security definer set search_path = '' as $$
  select b.blocked_id, nullif(pp.name, ''), b.created_at, exists (
    select 1 from public.reports r where r.reporter_id = b.blocker_id and r.reported_id = b.blocked_id
  )
  from public.blocked_users b
  left join public.public_profiles pp on pp.id = b.blocked_id
  where b.blocker_id = auth.uid()
  order by b.created_at desc, b.blocked_id
$$;
revoke execute on function public.get_blocked_members() from public, anon;
grant execute on function public.get_blocked_members() to authenticated;
