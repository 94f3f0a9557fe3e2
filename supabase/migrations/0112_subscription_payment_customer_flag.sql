-- The browser derives the plan from the replica (issue 12: one derivation, offline too), and the rule "a
-- basic plan with no payment-provider customer is free" needs to know whether a customer exists, while the
-- Stripe ids themselves stay on the server. A generated flag carries just that to the replica.
alter table public.subscriptions
  add column has_payment_customer boolean generated always as (stripe_customer_id is not null) stored;
