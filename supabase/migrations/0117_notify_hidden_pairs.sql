-- A block or a report hides two members from each other at once, realtime included (issue 13): the server
-- processes listen on heartsync_pair_hidden and end the pair's shared channels and presence. Sent when the
-- transaction commits, so a block rolled back tells nobody anything.
create or replace function public.notify_pair_hidden() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_table_name = 'blocked_users' then
    perform pg_notify('heartsync_pair_hidden', new.blocker_id::text || ',' || new.blocked_id::text);
  else
    perform pg_notify('heartsync_pair_hidden', new.reporter_id::text || ',' || new.reported_id::text);
  end if;
  return null;
end;
$$;
revoke execute on function public.notify_pair_hidden() from public, anon, authenticated;
create trigger blocked_users_notify_hidden after insert on public.blocked_users
  for each row execute function public.notify_pair_hidden();
create trigger reports_notify_hidden after insert on public.reports
  for each row execute function public.notify_pair_hidden();
