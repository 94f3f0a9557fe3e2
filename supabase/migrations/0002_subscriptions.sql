-- Subscriptions and the entitlement derivation of members-area §4. Members read their own row and
-- never write it: only the service role (verified payment events, admin commands) does.

create table public.subscriptions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique references auth.users (id) on delete cascade,
  plan_id text not null check (plan_id ~ '^[a-z][a-z0-9_-]{0,39}$'),
  billing_cycle text not null check (billing_cycle in ('free', 'monthly', 'quarterly', 'yearly')),
  status text not null check (status in (
    'active', 'incomplete', 'incomplete_expired', 'trialing', 'past_due', 'canceled', 'unpaid', 'paused',
    'expired')),
  current_period_end timestamptz,
  stripe_customer_id text check (length(stripe_customer_id) <= 255),
  stripe_subscription_id text check (length(stripe_subscription_id) <= 255),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.subscriptions enable row level security;
create policy "subscriptions: owner reads" on public.subscriptions for select to authenticated
  using (user_id = auth.uid());
revoke all on public.subscriptions from anon, authenticated;
grant select on public.subscriptions to authenticated;
create trigger subscriptions_set_updated_at before update on public.subscriptions
  for each row execute function public.set_updated_at();

-- The derivation, in one place so every path agrees. Security invoker on purpose: a member calling
-- it for someone else reads no row through RLS and gets the free answer, so it leaks nothing;
-- security definer functions (owner bypasses RLS) get the true answer for any member.
create or replace function public.get_entitlement(uid uuid)
returns table (
  is_subscribed boolean,
  tier text,
  status text,
  expiry_date timestamptz,
  billing_cycle text,
  plan_id text,
  stripe_customer_id text,
  stripe_subscription_id text,
  is_free_user boolean,
  is_premium boolean
)
language sql stable security invoker set search_path = '' as $$
  with s as (
    select sub.*,
      (sub.billing_cycle = 'free' or (sub.stripe_customer_id is null and sub.plan_id = 'basic')) as free_plan
    from public.subscriptions sub
    where sub.user_id = uid
  ),
  d as (
    select s.*,
      case
        when s.free_plan then 'active'
        when s.current_period_end is not null and s.current_period_end < now() then 'expired'
        else s.status
      end as derived_status
    from s
  )
  select
    d.derived_status in ('active', 'incomplete'),
    case when d.free_plan then 'free' when d.plan_id = 'elite' then 'enterprise' else d.plan_id end,
    d.derived_status,
    d.current_period_end,
    d.billing_cycle,
    d.plan_id,
    d.stripe_customer_id,
    d.stripe_subscription_id,
    d.free_plan,
    d.derived_status in ('active', 'incomplete') and not d.free_plan
  from d
  union all
  select false, 'free', 'none', null, null, null, null, null, true, false
  where not exists (select 1 from public.subscriptions sub where sub.user_id = uid)
$$;

-- True when the member has a paid subscription that currently counts (see get_entitlement).
create or replace function public.is_premium(uid uuid) returns boolean
language sql stable security invoker set search_path = '' as $$
  select coalesce((select e.is_premium from public.get_entitlement(uid) e limit 1), false)
$$;

-- The caller's own entitlement; empty for anonymous callers.
create or replace function public.my_entitlement()
returns table (
  is_subscribed boolean,
  tier text,
  status text,
  expiry_date timestamptz,
  billing_cycle text,
  plan_id text,
  stripe_customer_id text,
  stripe_subscription_id text,
  is_free_user boolean,
  is_premium boolean
)
language sql stable security invoker set search_path = '' as $$
  select * from public.get_entitlement(auth.uid()) where auth.uid() is not null
$$;

revoke execute on function public.get_entitlement(uuid), public.is_premium(uuid), public.my_entitlement()
  from public, anon;
