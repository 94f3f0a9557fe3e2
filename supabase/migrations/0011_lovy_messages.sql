-- Lovy chat history: the member's own questions and the assistant's replies. Members write only their
-- own "user" rows; "assistant" rows come from the Lovy function with the service role.

create table public.lovy_messages (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null default auth.uid() references public.profiles (id) on delete cascade,
  agent_id uuid references public.ai_agents (id) on delete set null,
  role text not null
    constraint lovy_messages_role_check check (role in ('user', 'assistant')),
  -- Not blank (any kind of whitespace), as the chat never sends an empty message.
  content text not null
    constraint lovy_messages_content_check check (content ~ '[^[:space:]]' and char_length(content) <= 8000),
  created_at timestamptz not null default now()
);

comment on table public.lovy_messages is
  'Lovy history. Owner reads and writes user rows; assistant rows only by the service role.';

create index lovy_messages_user_created_idx on public.lovy_messages (user_id, created_at);
create index lovy_messages_agent_idx on public.lovy_messages (agent_id) where agent_id is not null;

alter table public.lovy_messages enable row level security;
revoke all on public.lovy_messages from anon, authenticated;
grant select, insert, delete on public.lovy_messages to authenticated;

create policy lovy_messages_select_own on public.lovy_messages
  for select to authenticated using (user_id = auth.uid());
create policy lovy_messages_insert_own_user_rows on public.lovy_messages
  for insert to authenticated with check (user_id = auth.uid() and role = 'user');
-- Clearing one's history is allowed; editing it is not (no update policy).
create policy lovy_messages_delete_own on public.lovy_messages
  for delete to authenticated using (user_id = auth.uid());

-- An agent named on a message must belong to the same member, whoever writes the row.
create or replace function public.lovy_messages_check_agent()
returns trigger
language plpgsql
security definer
set search_path = public, pg_temp
as $$
begin
  if new.agent_id is not null
     and not exists (select 1 from public.ai_agents a where a.id = new.agent_id and a.user_id = new.user_id) then
    raise exception using errcode = '23503', message = 'agent_not_found',
      detail = 'The agent does not exist or belongs to another member.';
  end if;
  return new;
end;
$$;

create trigger lovy_messages_check_agent
  before insert on public.lovy_messages
  for each row execute function public.lovy_messages_check_agent();
