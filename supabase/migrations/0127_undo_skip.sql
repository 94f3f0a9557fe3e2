-- Undo of a skip (issue 20): a member may take back their own skip within an hour, so the card comes back.
-- Likes stay final (a like withdrawn would dodge the daily limit and the other member's "liked you"); nobody
-- deletes anyone else's row.
create policy "user_interactions: members undo their own recent skip" on public.user_interactions for delete
  to authenticated
  using (user_id = auth.uid() and interaction_type = 'skip' and created_at > now() - interval '1 hour');
grant delete on public.user_interactions to authenticated;
