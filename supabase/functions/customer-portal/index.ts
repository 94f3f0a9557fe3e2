// Opens the Stripe customer portal for the signed-in member (issue 15): change plan, cancel, invoices, card.
// Only a member Stripe knows as a customer has one. Answers {url} or {error}.
import { getEnv } from '../_shared/env.ts';
import { json, preflight } from '../_shared/http.ts';
import { serveWhenDeno } from '../_shared/serve.ts';
import { createStripe, findStripeCustomerId, isStripeConfigured } from '../_shared/stripe.ts';
import { findCaller } from '../_shared/supabase.ts';

export async function handler(req: Request): Promise<Response> {
  if (req.method === 'OPTIONS') return preflight();
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405);
  const caller = await findCaller(req);
  if (!caller) return json({ error: 'You must be logged in to update your subscription.' }, 401);
  if (!isStripeConfigured()) return json({ error: 'Payments are not configured on this instance.' }, 404);
  const customer = await findStripeCustomerId(caller.id);
  if (!customer) return json({ error: 'You have no paid subscription to manage yet.' }, 404);
  const session = await createStripe().billingPortal.sessions.create({
    customer,
    return_url: `${getEnv('PUBLIC_URL')}/manage-subscription`,
  });
  return json({ url: session.url });
}

export default handler;
serveWhenDeno(handler);
