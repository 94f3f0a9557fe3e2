// The paid plans of this instance and how they are paid (issue 15), for the pricing page: from the plans
// configuration, never from the app's bundle. Answers {plans, checkout: 'stripe' | 'demo' | 'none'}.
import { findEnv } from '../_shared/env.ts';
import { json, preflight } from '../_shared/http.ts';
import { parsePlans } from '../_shared/plans.ts';
import { serveWhenDeno } from '../_shared/serve.ts';
import { isStripeConfigured } from '../_shared/stripe.ts';

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST' && req.method !== 'GET') return json({ error: 'Method not allowed' }, 405);
  const plans = parsePlans(findEnv('PLANS_JSON')).map(({ id, name, prices, currency }) => ({
    id,
    name,
    prices,
    currency,
  }));
  const checkout = isStripeConfigured() ? 'stripe' : findEnv('DEMO_PAYMENTS') === '1' ? 'demo' : 'none';
  return json({ plans, checkout });
}

export default handler;
serveWhenDeno(handler);
