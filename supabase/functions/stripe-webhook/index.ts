// Stripe's webhook (issue 15): verifies the signature (and its timestamp, 5 minutes), records each event once
// by its id, and sets the member's plan through the one SQL path (apply_subscription_state) as the service
// role. A replay changes nothing; an older state arriving after a newer one changes nothing (the SQL compares
// the provider's times). Refusals are 4xx and change nothing. No JWT: Stripe signs instead (config.toml).
import type Stripe from 'stripe';
import { findEnv } from '../_shared/env.ts';
import { json } from '../_shared/http.ts';
import { findPlan, getPeriodDays, isBillingCycle, parsePlans, type BillingCycle } from '../_shared/plans.ts';
import { serveWhenDeno } from '../_shared/serve.ts';
import { createStripe } from '../_shared/stripe.ts';
import { createServiceClient } from '../_shared/supabase.ts';

const TOLERANCE_SECONDS = 300;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const idOf = (v: unknown): string | undefined => str(v) ?? str(obj(v)['id']);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const toIso = (seconds: number | undefined) =>
  seconds === undefined ? undefined : new Date(seconds * 1000).toISOString();

interface PlanState {
  userId: string;
  planId: string;
  cycle: BillingCycle;
  status: string;
  periodEnd: string | undefined;
  customerId: string | undefined;
  subscriptionId: string | undefined;
}

/** The member a Stripe object is about: our metadata first, else the customer or subscription we know. */
async function findMember(
  meta: Obj,
  customerId?: string,
  subscriptionId?: string,
): Promise<string | undefined> {
  const fromMeta = str(meta['user_id']);
  if (fromMeta && UUID.test(fromMeta)) return fromMeta;
  if (!customerId && !subscriptionId) return undefined;
  const sb = createServiceClient();
  const q = sb.from('subscriptions').select('user_id').limit(1);
  const { data } = await (subscriptionId
    ? q.eq('stripe_subscription_id', subscriptionId)
    : q.eq('stripe_customer_id', customerId!));
  return (data?.[0] as { user_id?: string } | undefined)?.user_id;
}

async function currentRow(userId: string) {
  const { data } = await createServiceClient()
    .from('subscriptions')
    .select('plan_id, billing_cycle, current_period_end, stripe_subscription_id')
    .eq('user_id', userId)
    .maybeSingle();
  return data as {
    plan_id: string;
    billing_cycle: string;
    current_period_end: string | null;
    stripe_subscription_id: string | null;
  } | null;
}

/** The plan state an event says, or undefined when it says nothing about a member's plan. */
async function readState(event: Stripe.Event): Promise<PlanState | undefined> {
  const o = obj(event.data.object);
  const meta = obj(o['metadata']);
  switch (event.type) {
    case 'checkout.session.completed': {
      if (o['mode'] !== 'subscription') return undefined;
      const userId = str(o['client_reference_id']);
      const planId = str(meta['plan_id']);
      const cycle = meta['billing_cycle'];
      if (!userId || !UUID.test(userId) || !planId || !isBillingCycle(cycle)) return undefined;
      const subscriptionId = idOf(o['subscription']);
      // The subscription's own events carry its period; this one only starts the plan when they have not yet.
      const row = await currentRow(userId);
      if (row?.stripe_subscription_id && row.stripe_subscription_id === subscriptionId) return undefined;
      return {
        userId,
        planId,
        cycle,
        status: 'active',
        periodEnd: new Date(event.created * 1000 + getPeriodDays(cycle) * 86_400_000).toISOString(),
        customerId: idOf(o['customer']),
        subscriptionId,
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const customerId = idOf(o['customer']);
      const subscriptionId = str(o['id']);
      const userId = await findMember(meta, customerId, subscriptionId);
      const item = obj((obj(o['items'])['data'] as unknown[] | undefined)?.[0]);
      const interval = obj(obj(item['price'])['recurring'])['interval'];
      const planId = str(meta['plan_id']) ?? (userId ? (await currentRow(userId))?.plan_id : undefined);
      if (!userId || !planId) return undefined;
      return {
        userId,
        planId,
        cycle: interval === 'year' ? 'yearly' : 'monthly',
        status:
          event.type === 'customer.subscription.deleted' ? 'canceled' : (str(o['status']) ?? 'incomplete'),
        periodEnd: toIso(num(item['current_period_end']) ?? num(o['current_period_end'])),
        customerId,
        subscriptionId,
      };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const customerId = idOf(o['customer']);
      const parent = obj(obj(o['parent'])['subscription_details']);
      const subscriptionId = idOf(o['subscription']) ?? idOf(parent['subscription']);
      const userId = await findMember(obj(parent['metadata']), customerId, subscriptionId);
      if (!userId) return undefined;
      const row = await currentRow(userId);
      if (!row || !isBillingCycle(row.billing_cycle)) return undefined;
      const line = obj((obj(o['lines'])['data'] as unknown[] | undefined)?.[0]);
      const paidUntil = toIso(num(obj(line['period'])['end']));
      return {
        userId,
        planId: row.plan_id,
        cycle: row.billing_cycle,
        status: event.type === 'invoice.paid' ? 'active' : 'past_due',
        periodEnd:
          event.type === 'invoice.paid'
            ? (paidUntil ?? row.current_period_end ?? undefined)
            : (row.current_period_end ?? undefined),
        customerId,
        subscriptionId,
      };
    }
    default:
      return undefined;
  }
}

export async function handler(req: Request): Promise<Response> {
  if (req.method !== 'POST') return json({ error: 'Method not allowed' }, 405);
  const secret = findEnv('STRIPE_WEBHOOK_SECRET');
  if (!secret || !findEnv('STRIPE_SECRET_KEY')) return json({ error: 'Payments are not configured' }, 404);
  const signature = req.headers.get('stripe-signature');
  if (!signature) return json({ error: 'Missing Stripe-Signature header' }, 400);
  const body = await req.text();
  let event: Stripe.Event;
  try {
    event = await createStripe().webhooks.constructEventAsync(body, signature, secret, TOLERANCE_SECONDS);
  } catch {
    return json({ error: 'Invalid signature' }, 400);
  }

  const sb = createServiceClient();
  const state = await readState(event);
  if (state && !findPlan(parsePlans(findEnv('PLANS_JSON')), state.planId))
    return json({ error: `Unknown plan ${state.planId}` }, 400);
  // Recorded first: a replay (the same id) stops here, whatever its outcome was.
  const { error: recordError } = await sb.from('payment_events').insert({
    id: event.id,
    provider: 'stripe',
    type: event.type,
    occurred_at: new Date(event.created * 1000).toISOString(),
    user_id: state?.userId ?? null,
    payload: { object_id: idOf(event.data.object) ?? null },
  });
  if (recordError?.code === '23505') return json({ received: true, duplicate: true });
  if (recordError) throw new Error(`recording the event failed: ${recordError.message}`);
  if (!state) return json({ received: true, ignored: true });

  const { error } = await sb.rpc('apply_subscription_state', {
    uid: state.userId,
    new_plan_id: state.planId,
    new_billing_cycle: state.cycle,
    new_status: state.status,
    new_period_end: state.periodEnd ?? null,
    new_customer_id: state.customerId ?? null,
    new_subscription_id: state.subscriptionId ?? null,
    event_at: new Date(event.created * 1000).toISOString(),
  });
  if (error) {
    // Not applied: forget the event so Stripe's retry applies it.
    await sb.from('payment_events').delete().eq('id', event.id);
    throw new Error(`applying the event failed: ${error.message}`);
  }
  return json({ received: true });
}

export default handler;
serveWhenDeno(handler);
