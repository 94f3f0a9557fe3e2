// The demo checkout (issue 15): on a demo instance without Stripe (never with NODE_ENV=production), a member
// "pays" for a plan and gets it for one period through the same SQL path a verified payment event uses. No
// money moves, and the page says so. Body {plan_id, billing_cycle}; answers {plan_id, until} or {error}.
import { findEnv } from '../_shared/env.ts';
import { findJsonObject, json, preflight } from '../_shared/http.ts';
import { findPlan, getPeriodDays, isBillingCycle, parsePlans } from '../_shared/plans.ts';
import { serveWhenDeno } from '../_shared/serve.ts';
import { isStripeConfigured } from '../_shared/stripe.ts';
import { createServiceClient, findCaller } from '../_shared/supabase.ts';

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405);
  if (findEnv('DEMO_PAYMENTS') !== '1' || isStripeConfigured())
    return json({ error: 'The demo checkout is not available on this instance.' }, 404);
  const caller = await findCaller(req);
  if (!caller) return json({ error: 'You must be logged in to update your subscription.' }, 401);
  const body = await findJsonObject(req);
  const plan = findPlan(parsePlans(findEnv('PLANS_JSON')), body?.['plan_id']);
  const cycle = body?.['billing_cycle'];
  if (!plan || !isBillingCycle(cycle))
    return json({ error: 'Please choose a plan and a billing period.' }, 400);

  const now = new Date();
  const until = new Date(now.getTime() + getPeriodDays(cycle) * 86_400_000).toISOString();
  const sb = createServiceClient();
  const eventId = `demo_${crypto.randomUUID()}`;
  const { error: recordError } = await sb.from('payment_events').insert({
    id: eventId,
    provider: 'demo',
    type: 'demo.checkout.completed',
    occurred_at: now.toISOString(),
    user_id: caller.id,
    payload: { plan_id: plan.id, billing_cycle: cycle },
  });
  if (recordError) throw new Error(`recording the demo payment failed: ${recordError.message}`);
  const { error } = await sb.rpc('apply_subscription_state', {
    uid: caller.id,
    new_plan_id: plan.id,
    new_billing_cycle: cycle,
    new_status: 'active',
    new_period_end: until,
    new_customer_id: null,
    new_subscription_id: null,
    event_at: now.toISOString(),
  });
  if (error) {
    await sb.from('payment_events').delete().eq('id', eventId);
    return json({ error: 'Failed to update your subscription status.' }, 500);
  }
  return json({ plan_id: plan.id, until });
}

export default handler;
serveWhenDeno(handler);
