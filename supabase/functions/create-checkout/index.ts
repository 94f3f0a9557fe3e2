// Starts payment for a plan (issue 15): a Stripe Checkout Session in subscription mode for the signed-in
// member, answered with the URL to send them to. The member's id and the plan travel as the session's
// client_reference_id and metadata, so the verified webhook knows whose plan it sets; the browser is never
// trusted with the outcome. Body {plan_id, billing_cycle}; answers {url} or {error}.
import { findEnv, getEnv } from '../_shared/env.ts';
import { findJsonObject, json, preflight } from '../_shared/http.ts';
import { findPlan, isBillingCycle, parsePlans } from '../_shared/plans.ts';
import { serveWhenDeno } from '../_shared/serve.ts';
import { createStripe, findStripeCustomerId, isStripeConfigured } from '../_shared/stripe.ts';
import { findCaller } from '../_shared/supabase.ts';

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405);
  const caller = await findCaller(req);
  if (!caller) return json({ error: 'You must be logged in to update your subscription.' }, 401);
  if (!isStripeConfigured()) return json({ error: 'Payments are not configured on this instance.' }, 404);
  const body = await findJsonObject(req);
  const plan = findPlan(parsePlans(findEnv('PLANS_JSON')), body?.['plan_id']);
  const cycle = body?.['billing_cycle'];
  if (!plan || !isBillingCycle(cycle))
    return json({ error: 'Please choose a plan and a billing period.' }, 400);

  const customer = await findStripeCustomerId(caller.id);
  const origin = getEnv('PUBLIC_URL');
  const priceId = plan.stripePriceIds?.[cycle];
  const session = await createStripe().checkout.sessions.create({
    mode: 'subscription',
    client_reference_id: caller.id,
    ...(customer ? { customer } : caller.email ? { customer_email: caller.email } : {}),
    line_items: [
      priceId
        ? { price: priceId, quantity: 1 }
        : {
            quantity: 1,
            price_data: {
              currency: plan.currency,
              unit_amount: plan.prices[cycle],
              recurring: { interval: cycle === 'yearly' ? 'year' : 'month' },
              product_data: { name: `HeartSync ${plan.name}` },
            },
          },
    ],
    metadata: { user_id: caller.id, plan_id: plan.id, billing_cycle: cycle },
    subscription_data: { metadata: { user_id: caller.id, plan_id: plan.id, billing_cycle: cycle } },
    success_url: `${origin}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}/pricing`,
  });
  if (!session.url) return json({ error: 'Failed to update your subscription status.' }, 502);
  return json({ url: session.url });
}

export default handler;
serveWhenDeno(handler);
