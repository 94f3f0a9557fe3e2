-- The AI service behind Lovy (issue 16): a member's question is a `lovy_messages` user row (written through
-- the replica, so a question asked offline is kept and uploads later); the `lovy-chat` function answers it
-- once, as the service role, with a row that names the question (`reply_to`) and says who wrote it
-- (`source`: a language model, the built-in coach, or a notice such as an error). Limits live here: a
-- question's length on the member's rows; a per-minute rate and a daily number of answers by plan on the
-- claim the function makes before it calls a model (the costly step; writing one's own history stays free).
-- The usage log keeps counts and timings, never text.

alter table public.lovy_messages
  add column reply_to uuid references public.lovy_messages (id) on delete cascade,
  add column source text
    constraint lovy_messages_source_check check (source in ('model', 'coach', 'notice'));
-- A member's row is a question (no reply_to, no source); an assistant row may answer one (a greeting does not).
alter table public.lovy_messages add constraint lovy_messages_shape_check check (
  role = 'assistant' or (reply_to is null and source is null));
-- One answer per question, whoever retries.
create unique index lovy_messages_one_reply_idx on public.lovy_messages (reply_to) where reply_to is not null;

create or replace function public.get_lovy_question_max_chars() returns int
language sql immutable as $$ select 2000 $$;
create or replace function public.get_lovy_questions_per_minute() returns int
language sql immutable as $$ select 6 $$;
-- Answers a member may get in any 24 hours: the free plan a few a day, paid plans plenty.
create or replace function public.get_lovy_daily_answers(is_premium boolean) returns int
language sql immutable as $$ select case when is_premium then 300 else 30 end $$;

create or replace function public.check_lovy_question() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.role = 'user' and char_length(new.content) > public.get_lovy_question_max_chars() then
    raise exception 'lovy_question_too_long' using errcode = '23514',
      hint = 'At most ' || public.get_lovy_question_max_chars() || ' characters';
  end if;
  return new;
end;
$$;
revoke execute on function public.check_lovy_question() from public, anon, authenticated;
create trigger lovy_messages_check_question before insert on public.lovy_messages
  for each row execute function public.check_lovy_question();

-- Only the service role writes answers (the policies of 0011 let members insert user rows only); an answer
-- must name a question of the same member.
create or replace function public.check_lovy_answer() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if new.role = 'assistant' and new.reply_to is not null and not exists (
    select 1 from public.lovy_messages q
     where q.id = new.reply_to and q.user_id = new.user_id and q.role = 'user') then
    raise exception 'lovy_question_not_found' using errcode = '23503';
  end if;
  return new;
end;
$$;
revoke execute on function public.check_lovy_answer() from public, anon, authenticated;
create trigger lovy_messages_check_answer before insert on public.lovy_messages
  for each row execute function public.check_lovy_answer();

-- What answering cost, without any text: who, which question, which provider and model, tokens, timings.
create table public.ai_usage (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  -- The question answered; one claim per question (a retry reuses a failed or abandoned one).
  question_id uuid unique references public.lovy_messages (id) on delete set null,
  provider text not null constraint ai_usage_provider_check check (provider in ('model', 'coach')),
  model text constraint ai_usage_model_check check (char_length(model) <= 200),
  outcome text not null default 'started'
    constraint ai_usage_outcome_check check (outcome in ('started', 'answered', 'failed')),
  error_type text constraint ai_usage_error_type_check
    check (error_type in ('API_KEY_MISSING', 'NETWORK_ERROR', 'RATE_LIMIT', 'API_ERROR', 'EMPTY', 'OTHER')),
  prompt_tokens int constraint ai_usage_prompt_tokens_check check (prompt_tokens >= 0),
  completion_tokens int constraint ai_usage_completion_tokens_check check (completion_tokens >= 0),
  first_token_ms int constraint ai_usage_first_token_ms_check check (first_token_ms >= 0),
  total_ms int constraint ai_usage_total_ms_check check (total_ms >= 0),
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
comment on table public.ai_usage is
  'One row per answered Lovy question: provider, model, tokens and timings, never the text. Service role writes.';
create index ai_usage_user_created_idx on public.ai_usage (user_id, created_at);
alter table public.ai_usage enable row level security;
revoke all on public.ai_usage from anon, authenticated;
grant select on public.ai_usage to authenticated;
create policy ai_usage_select_own on public.ai_usage for select to authenticated using (user_id = auth.uid());

-- The function's claim on a question before it calls a model: the question must be the calling member's, not yet
-- answered, not claimed by a call still running (a claim older than two minutes counts as abandoned), and
-- the member must be within the per-minute rate and have answers left today. Returns the usage row's id.
create or replace function public.claim_lovy_answer(question uuid, member uuid, use_provider text, use_model text)
returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  q record;
  used int;
  premium boolean;
  claimed uuid;
begin
  select m.id, m.user_id into q from public.lovy_messages m
   where m.id = question and m.role = 'user' and m.user_id = member;
  if not found then
    raise exception 'lovy_question_not_found' using errcode = 'P0002';
  end if;
  perform pg_advisory_xact_lock(hashtext('lovy'), hashtext(q.user_id::text));
  if exists (select 1 from public.lovy_messages a where a.reply_to = question) then
    raise exception 'lovy_already_answered' using errcode = '23505';
  end if;
  select coalesce((select e.is_premium from public.get_entitlement(q.user_id) e), false) into premium;
  select count(*) into used from public.ai_usage u
   where u.user_id = q.user_id and u.created_at > now() - interval '60 seconds'
     and u.question_id is distinct from question;
  if used >= public.get_lovy_questions_per_minute() then
    raise exception 'lovy_rate_limited' using errcode = 'P0001',
      hint = 'At most ' || public.get_lovy_questions_per_minute() || ' questions a minute';
  end if;
  select count(*) into used from public.ai_usage u
   where u.user_id = q.user_id and u.created_at > now() - interval '24 hours' and u.outcome <> 'failed'
     and u.question_id is distinct from question;
  if used >= public.get_lovy_daily_answers(premium) then
    raise exception 'lovy_daily_limit' using errcode = 'P0001',
      hint = 'At most ' || public.get_lovy_daily_answers(premium) || ' answers a day';
  end if;
  insert into public.ai_usage as u (user_id, question_id, provider, model)
  values (q.user_id, question, use_provider, use_model)
  on conflict (question_id) do update
    set provider = excluded.provider, model = excluded.model, outcome = 'started', error_type = null,
        prompt_tokens = null, completion_tokens = null, first_token_ms = null, total_ms = null,
        created_at = now(), finished_at = null
    where u.outcome = 'failed' or (u.outcome = 'started' and u.created_at < now() - interval '2 minutes')
  returning u.id into claimed;
  if claimed is null then
    raise exception 'lovy_answer_in_progress' using errcode = '55P03';
  end if;
  return claimed;
end;
$$;
revoke execute on function public.claim_lovy_answer(uuid, uuid, text, text) from public, anon, authenticated;
grant execute on function public.claim_lovy_answer(uuid, uuid, text, text) to service_role;
