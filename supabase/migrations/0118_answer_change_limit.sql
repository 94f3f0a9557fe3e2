-- Private questionnaire answers must not be inferable (issue 13): the compatibility score and "you agree
-- on n of m questions" depend on the other member's private answers, so a member flipping their own answer
-- to one question and reading someone's card after each flip learned that person's answer in about seven
-- tries. A question's answer may now be written at most twice in 24 hours (the answer and one
-- correction), deletions included, so such probing takes days per question instead of seconds. The count
-- lives in its own table because a deleted answer must still count.
create table public.member_answer_changes (
  user_id uuid not null references public.profiles (id) on delete cascade,
  question_id int not null,
  changed_at timestamptz not null default now()
);
create index member_answer_changes_idx on public.member_answer_changes (user_id, question_id, changed_at);
alter table public.member_answer_changes enable row level security;
revoke all on public.member_answer_changes from public, anon, authenticated;

create or replace function public.get_answer_writes_per_day() returns int
language sql immutable as $$ select 2 $$;

create or replace function public.limit_answer_changes() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  member uuid := coalesce(new.user_id, old.user_id);
  question int := coalesce(new.question_id, old.question_id);
  writes int;
begin
  if auth.role() is distinct from 'authenticated' then
    return coalesce(new, old);
  end if;
  -- An upsert of an existing answer fires this for its insert first: its update is the write that counts.
  if tg_op = 'INSERT' and exists (
    select 1 from public.profile_answers p where p.user_id = member and p.question_id = question) then
    return new;
  end if;
  -- Only what changes the score counts: an untouched re-save is free.
  if tg_op = 'UPDATE' and new.answer = old.answer and new.acceptable_answers = old.acceptable_answers
     and new.importance = old.importance and new.question_id = old.question_id then
    return new;
  end if;
  select count(*) into writes from public.member_answer_changes c
   where c.user_id = member and c.question_id = question and c.changed_at > now() - interval '1 day';
  if writes >= public.get_answer_writes_per_day() then
    raise exception 'You can change this answer again tomorrow.' using errcode = '23514';
  end if;
  insert into public.member_answer_changes (user_id, question_id) values (member, question);
  delete from public.member_answer_changes c where c.user_id = member and c.changed_at < now() - interval '2 days';
  return coalesce(new, old);
end;
$$;
revoke execute on function public.limit_answer_changes() from public, anon, authenticated;
create trigger profile_answers_change_limit before insert or update or delete on public.profile_answers
  for each row execute function public.limit_answer_changes();
