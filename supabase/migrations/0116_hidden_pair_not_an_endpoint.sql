-- is_hidden_pair(a, b) answers whether either of two members blocked or reported the other. Row-level
-- security needs it, but as a function of schema public it was also an RPC endpoint: a member who lost a
-- match could call it and learn they were blocked or reported rather than unmatched (issue 13).
-- It moves to a schema the API does not serve. Policies name functions by identity, so every policy
-- using it follows the move; members keep EXECUTE on it because policies run with the caller's rights.
-- The functions that call it by name (all security definer, running as the owner) keep a public wrapper
-- that no API role may execute.
create schema if not exists app_private;
revoke all on schema app_private from public;
grant usage on schema app_private to authenticated, service_role;

alter function public.is_hidden_pair(uuid, uuid) set schema app_private;
revoke execute on function app_private.is_hidden_pair(uuid, uuid) from public, anon;
grant execute on function app_private.is_hidden_pair(uuid, uuid) to authenticated, service_role;

create or replace function public.is_hidden_pair(a uuid, b uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select app_private.is_hidden_pair(a, b)
$$;
revoke execute on function public.is_hidden_pair(uuid, uuid) from public, anon, authenticated;
