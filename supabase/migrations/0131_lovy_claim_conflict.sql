-- A question whose answer is already being written is a conflict, not a server fault: claim_lovy_answer
-- raised 55P03 (lock_not_available), which the REST part answers 500 and logs as an error, as PostgREST
-- would. It raises PT409 now, answered 409 and not logged as a failure; lovy-chat reads the new code.
-- Restated from 0130 with only that code changed.
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
    raise exception 'lovy_answer_in_progress' using errcode = 'PT409';
  end if;
  return claimed;
end;
$$;
