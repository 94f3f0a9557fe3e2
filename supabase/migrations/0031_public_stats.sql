-- The landing page's figures: the instance's real counts, readable by anyone, revealing no one.
create or replace function public.get_public_stats()
returns json
language sql
stable
security definer
set search_path = public, pg_temp
as $$
  select json_build_object(
    'members', (select count(*) from public.profiles),
    'matches', (select count(*) from public.matches),
    'messages', (select count(*) from public.messages)
  )
$$;

revoke execute on function public.get_public_stats() from public;
grant execute on function public.get_public_stats() to anon, authenticated, service_role;
