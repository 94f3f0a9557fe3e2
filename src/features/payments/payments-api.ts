// Calls to the payment functions (issue 15): the plans of this instance, starting a Stripe Checkout, the demo
// checkout and the billing portal. The outcome of a payment is never taken from here: the plan arrives in the
// replica from the server's verified record.
import { getSupabase } from '../../data/supabase-client.ts';
import { toast } from '../../ui/toast-store.ts';

export type BillingCycle = 'monthly' | 'yearly';

export interface PlanOffer {
  id: string;
  name: string;
  prices: Record<BillingCycle, number>;
  currency: string;
}

export interface PlansAnswer {
  plans: PlanOffer[];
  checkout: 'stripe' | 'demo' | 'none';
}

async function invoke<T>(name: string, body: unknown): Promise<T> {
  const sb = await getSupabase();
  const { data, error } = await sb.functions.invoke<T>(name, { method: 'POST', body: body as object });
  if (error) {
    // The function's own sentence when it gave one (e.g. "You must be logged in to update your subscription.").
    const context = (error as { context?: Response }).context;
    const said = context ? ((await context.json().catch(() => null)) as { error?: string } | null) : null;
    throw new Error(said?.error ?? 'Failed to update your subscription status.');
  }
  return data as T;
}

export const fetchPlans = () => invoke<PlansAnswer>('plans', {});

export const startStripeCheckout = (planId: string, cycle: BillingCycle) =>
  invoke<{ url: string }>('create-checkout', { plan_id: planId, billing_cycle: cycle });

export const payWithDemoCheckout = (planId: string, cycle: BillingCycle) =>
  invoke<{ plan_id: string; until: string }>('demo-checkout', { plan_id: planId, billing_cycle: cycle });

export const openBillingPortal = () => invoke<{ url: string }>('customer-portal', {});

/** "$14.99" for 1499 cents in usd. */
export function formatPrice(cents: number, currency: string): string {
  return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(
    cents / 100,
  );
}

/** What a tier unlocks, by the rules SQL applies to its id (agent counts as in src/domain/agent-limits.ts). */
export function getPlanFeatures(planId: string | undefined, agentLimit: number, advanced: boolean): string[] {
  if (!planId) return ['50 likes a day', 'Discovery and matches', '1 AI agent at low autonomy'];
  return [
    'Unlimited likes and matches',
    'Messages and video calls with your matches',
    `${agentLimit} AI agent${agentLimit > 1 ? 's' : ''}${advanced ? ' with advanced autonomy' : ''}`,
  ];
}

/** "Connector" for connector, "VIP" for vip: a tier as a member reads it. */
export function getTierName(tier: string): string {
  return tier === 'vip' ? 'VIP' : tier.charAt(0).toUpperCase() + tier.slice(1);
}

/** A payment call that failed, in the function's own words when it gave them. */
export function toastPaymentError(e: unknown): void {
  toast({
    title: 'Error',
    description: e instanceof Error ? e.message : 'Failed to update your subscription status.',
    variant: 'destructive',
  });
}
