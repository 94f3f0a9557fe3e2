-- Lovy's replies spoken by the model server's speech endpoint (issue 16), when the operator configured one
-- (OPENAI_TTS_MODEL); otherwise the browser's speech synthesis speaks them and nothing reaches a server.
-- Only the member's own stored Lovy answers are spoken (never text the app sends), at most a few a minute,
-- and each is logged in ai_usage without its text.

alter table public.ai_usage drop constraint ai_usage_purpose_check;
alter table public.ai_usage add constraint ai_usage_purpose_check
  check (purpose in ('lovy', 'draft', 'speech'));

create or replace function public.get_lovy_speech_per_minute() returns int
language sql immutable as $$ select 10 $$;

-- Claims speaking `answer` for `member` (service role only, from lovy-speech): the member's own assistant
-- answer with text, within the per-minute limit. Returns the text to speak and the ai_usage row it opened.
create or replace function public.claim_lovy_speech(answer uuid, member uuid, use_model text)
returns table (content text, usage_id uuid)
language plpgsql security definer set search_path = '' as $$
declare
  used int;
begin
  select m.content into content from public.lovy_messages m
   where m.id = answer and m.user_id = member and m.role = 'assistant';
  if not found or coalesce(content, '') = '' then
    raise exception 'lovy_answer_not_found' using errcode = 'P0002';
  end if;
  perform pg_advisory_xact_lock(hashtext('lovy-speech'), hashtext(member::text));
  select count(*) into used from public.ai_usage u
   where u.user_id = member and u.purpose = 'speech' and u.created_at > now() - interval '60 seconds';
  if used >= public.get_lovy_speech_per_minute() then
    raise exception 'lovy_rate_limited' using errcode = 'P0001';
  end if;
  insert into public.ai_usage as u (user_id, provider, model, purpose)
  values (member, 'model', use_model, 'speech') returning u.id into usage_id;
  return next;
end;
$$;
revoke execute on function public.claim_lovy_speech(uuid, uuid, text) from public, anon, authenticated;
grant execute on function public.claim_lovy_speech(uuid, uuid, text) to service_role;

-- Speaking an answer is not asking: Lovy's per-minute rate and daily answers (shared by questions and the
-- Wingman's drafts) leave speech out. Restated from 0121 with only that filter added.
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
   where u.user_id = q.user_id and u.created_at > now() - interval '60 seconds' and u.purpose <> 'speech'
     and u.question_id is distinct from question;
  if used >= public.get_lovy_questions_per_minute() then
    raise exception 'lovy_rate_limited' using errcode = 'P0001',
      hint = 'At most ' || public.get_lovy_questions_per_minute() || ' questions a minute';
  end if;
  select count(*) into used from public.ai_usage u
   where u.user_id = q.user_id and u.created_at > now() - interval '24 hours' and u.outcome <> 'failed'
     and u.purpose <> 'speech'
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
