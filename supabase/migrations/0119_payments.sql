-- Payments (issue 15): every verified payment event recorded once, the one server path that sets a member's
-- plan (Stripe webhooks, the demo checkout and the operator's grant all call it), an audit of operator grants,
-- and what a lapsed plan takes away at once. Members never write any of it.

-- Each provider event once (its id is the key): a replay or a retry changes nothing.
create table public.payment_events (
  id text primary key check (length(id) between 1 and 255),
  provider text not null check (provider in ('stripe', 'demo', 'operator')),
  type text not null check (length(type) <= 100),
  occurred_at timestamptz not null,
  received_at timestamptz not null default now(),
  user_id uuid references auth.users (id) on delete set null,
  payload jsonb not null default '{}'::jsonb
);
alter table public.payment_events enable row level security;
revoke all on public.payment_events from public, anon, authenticated;

-- What the operator granted or revoked, by whom and why (npm run admin).
create table public.subscription_grants (
  id uuid primary key default gen_random_uuid(),
  user_id uuid references auth.users (id) on delete set null,
  email text not null,
  action text not null check (action in ('grant', 'revoke')),
  plan_id text check (plan_id ~ '^[a-z][a-z0-9_-]{0,39}$'),
  days int check (days between 1 and 3660),
  granted_by text not null check (length(granted_by) <= 200),
  created_at timestamptz not null default now()
);
alter table public.subscription_grants enable row level security;
revoke all on public.subscription_grants from public, anon, authenticated;

-- The provider's time of the state a row holds: an older event arriving late never overwrites a newer one.
alter table public.subscriptions add column provider_event_at timestamptz;

-- What a plan no longer allows ends at once: agents beyond the plan's count become inactive (the active one
-- stays when there is one, else the newest), autonomy above the plan falls to low. Calls need premium in
-- SQL already (can_video_call), and likes are limited again by the like trigger.
create or replace function public.enforce_plan_limits(uid uuid) returns void
language plpgsql security definer set search_path = '' as $$
declare
  plan record;
begin
  select * into plan from public.get_agent_plan_for(uid);
  update public.ai_agents a set autonomy_level = 'low'
   where a.user_id = uid
     and ((not plan.is_subscribed and a.autonomy_level in ('medium', 'high'))
       or (a.autonomy_level = 'high' and not plan.advanced_agents));
  update public.ai_agents a set is_active = false
   where a.user_id = uid and a.is_active and a.id not in (
     select k.id from public.ai_agents k where k.user_id = uid
      order by k.is_active desc, k.created_at desc limit plan.agent_limit);
end;
$$;
revoke execute on function public.enforce_plan_limits(uuid) from public, anon, authenticated;

-- The one path that sets a member's plan, for the server's verified callers only. `event_at` is the
-- provider's time of this state; an older state than the row's is ignored (out-of-order delivery).
-- Returns whether the row changed.
create or replace function public.apply_subscription_state(
  uid uuid,
  new_plan_id text,
  new_billing_cycle text,
  new_status text,
  new_period_end timestamptz,
  new_customer_id text,
  new_subscription_id text,
  event_at timestamptz
) returns boolean
language plpgsql security definer set search_path = '' as $$
declare
  current_at timestamptz;
begin
  if uid is null or event_at is null then
    raise exception 'apply_subscription_state needs a member and the event time' using errcode = '22023';
  end if;
  perform pg_advisory_xact_lock(hashtext('subscription'), hashtext(uid::text));
  select s.provider_event_at into current_at from public.subscriptions s where s.user_id = uid;
  if found and current_at is not null and current_at > event_at then
    return false;
  end if;
  insert into public.subscriptions as s (user_id, plan_id, billing_cycle, status, current_period_end,
    stripe_customer_id, stripe_subscription_id, provider_event_at)
  values (uid, new_plan_id, new_billing_cycle, new_status, new_period_end, new_customer_id,
    new_subscription_id, event_at)
  on conflict (user_id) do update set
    plan_id = excluded.plan_id,
    billing_cycle = excluded.billing_cycle,
    status = excluded.status,
    current_period_end = excluded.current_period_end,
    stripe_customer_id = coalesce(excluded.stripe_customer_id, s.stripe_customer_id),
    stripe_subscription_id = coalesce(excluded.stripe_subscription_id, s.stripe_subscription_id),
    provider_event_at = excluded.provider_event_at;
  perform public.enforce_plan_limits(uid);
  return true;
end;
$$;
revoke execute on function public.apply_subscription_state(uuid, text, text, text, timestamptz, text, text, timestamptz)
  from public, anon, authenticated;
