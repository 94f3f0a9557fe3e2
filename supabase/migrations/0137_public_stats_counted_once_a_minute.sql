-- The landing page's figures at scale (issue 21): get_public_stats counted every profile, match and message for
-- each anonymous visit (67 ms warm at 1M members with no messages, 537 ms cold; a community's message table is
-- many times larger), and anyone could call it in a loop. The figures are now counted at most once a minute and
-- kept in app_private.public_stats: a call within the minute answers the kept figures; the first call after it
-- counts again, while calls arriving meanwhile answer the last figures instead of counting too. Still the
-- instance's real counts, at most a minute old. Volatile now (it writes what it counted); the landing already
-- calls it with POST.
create table app_private.public_stats (
  singleton boolean primary key default true check (singleton),
  counted_at timestamptz not null,
  stats json not null
);
revoke all on app_private.public_stats from public, anon, authenticated, service_role;

create or replace function public.get_public_stats()
returns json
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  kept app_private.public_stats;
  counted json;
begin
  select * into kept from app_private.public_stats;
  if found and kept.counted_at > now() - interval '1 minute' then
    return kept.stats;
  end if;
  -- One caller counts; the others meanwhile answer the last figures (counting reads whole tables).
  if found and not pg_try_advisory_xact_lock(7351042004) then
    return kept.stats;
  end if;
  counted := json_build_object(
    'members', (select count(*) from public.profiles),
    'matches', (select count(*) from public.matches),
    'messages', (select count(*) from public.messages)
  );
  insert into app_private.public_stats (singleton, counted_at, stats) values (true, now(), counted)
  on conflict (singleton) do update set counted_at = excluded.counted_at, stats = excluded.stats;
  return counted;
end;
$$;

revoke execute on function public.get_public_stats() from public;
grant execute on function public.get_public_stats() to anon, authenticated, service_role;
