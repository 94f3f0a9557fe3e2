-- The operator's grant and revoke of a plan (issue 15), for instances without Stripe: npm run admin calls these
-- as the service role. Each goes through apply_subscription_state like a verified payment, and is written to
-- subscription_grants (0119).
create or replace function public.admin_grant_plan(member_email text, plan text, days int, actor text)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid;
  until timestamptz := now() + make_interval(days => days);
begin
  if days is null or days < 1 or days > 3660 then
    raise exception 'days must be between 1 and 3660' using errcode = '22023';
  end if;
  if plan is null or plan !~ '^[a-z][a-z0-9_-]{0,39}$' or plan in ('free', 'basic') then
    raise exception 'a paid plan id is required' using errcode = '22023';
  end if;
  select u.id into uid from auth.users u where lower(u.email) = lower(trim(member_email));
  if uid is null then
    raise exception 'no member with that e-mail' using errcode = 'P0002';
  end if;
  perform public.apply_subscription_state(uid, plan, case when days > 62 then 'yearly' else 'monthly' end,
    'active', until, null, null, now());
  insert into public.subscription_grants (user_id, email, action, plan_id, days, granted_by)
  values (uid, lower(trim(member_email)), 'grant', plan, days, left(coalesce(actor, 'operator'), 200));
  return jsonb_build_object('user_id', uid, 'plan_id', plan, 'until', until);
end;
$$;
revoke execute on function public.admin_grant_plan(text, text, int, text) from public, anon, authenticated;
grant execute on function public.admin_grant_plan(text, text, int, text) to service_role;

create or replace function public.admin_revoke_plan(member_email text, actor text)
returns jsonb
language plpgsql security definer set search_path = '' as $$
declare
  uid uuid;
  current_plan text;
begin
  select u.id into uid from auth.users u where lower(u.email) = lower(trim(member_email));
  if uid is null then
    raise exception 'no member with that e-mail' using errcode = 'P0002';
  end if;
  select s.plan_id into current_plan from public.subscriptions s where s.user_id = uid;
  if current_plan is not null then
    perform public.apply_subscription_state(uid, current_plan, 'monthly', 'expired', now(), null, null, now());
  end if;
  insert into public.subscription_grants (user_id, email, action, plan_id, granted_by)
  values (uid, lower(trim(member_email)), 'revoke', current_plan, left(coalesce(actor, 'operator'), 200));
  return jsonb_build_object('user_id', uid, 'revoked', current_plan is not null);
end;
$$;
revoke execute on function public.admin_revoke_plan(text, text) from public, anon, authenticated;
grant execute on function public.admin_revoke_plan(text, text) to service_role;
