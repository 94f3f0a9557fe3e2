-- Hosted Supabase Realtime decides private channels by row-level security on realtime.messages (issue 18:
-- peer-to-peer calls signal on call:<id>). The same rules as the self-contained server's
-- (server/realtime/topics.ts, authorize-join.ts), for `select` (receive, join) and `insert` (send broadcasts
-- and presence): online-users for signed-in members; conversation:, call: and game:<id> only for the row's two
-- members, read as the member so the tables' own row-level security decides too; public:<name> for anyone.
-- PGlite and plain PostgreSQL have no realtime schema: there this migration does nothing, and the server's
-- own realtime applies the rules.
create or replace function public.realtime_topic_allowed(topic text) returns boolean
language plpgsql stable security invoker set search_path = '' as $$
declare
  kind text := split_part(topic, ':', 1);
  rest text := substr(topic, length(split_part(topic, ':', 1)) + 2);
  target uuid;
begin
  if topic is null then
    return false;
  end if;
  if topic ~ '^public:[A-Za-z0-9_.:-]{1,100}$' then
    return true;
  end if;
  if auth.uid() is null then
    return false;
  end if;
  if topic = 'online-users' then
    return true;
  end if;
  if rest !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
    return false;
  end if;
  target := rest::uuid;
  return case kind
    when 'conversation' then exists (
      select 1 from public.conversations c where c.id = target
         and auth.uid() in (c.participant1_id, c.participant2_id))
    when 'call' then exists (
      select 1 from public.video_calls v where v.id = target
         and auth.uid() in (v.caller_id, v.recipient_id))
    when 'game' then exists (
      select 1 from public.game_sessions g where g.id = target
         and auth.uid() in (g.player1_id, g.player2_id))
    else false
  end;
end;
$$;
revoke execute on function public.realtime_topic_allowed(text) from public;
grant execute on function public.realtime_topic_allowed(text) to anon, authenticated;

do $$
begin
  if to_regclass('realtime.messages') is null or to_regprocedure('realtime.topic()') is null then
    return;
  end if;
  execute 'drop policy if exists "heartsync: receive on allowed channels" on realtime.messages';
  execute 'drop policy if exists "heartsync: send on allowed channels" on realtime.messages';
  execute $p$create policy "heartsync: receive on allowed channels" on realtime.messages
    for select to anon, authenticated using (public.realtime_topic_allowed(realtime.topic()))$p$;
  execute $p$create policy "heartsync: send on allowed channels" on realtime.messages
    for insert to anon, authenticated with check (public.realtime_topic_allowed(realtime.topic()))$p$;
end;
$$;
