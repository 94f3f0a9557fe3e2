// The paid plans, in one place for the pricing page's data, checkout and the webhook: ids the SQL tier
// rules recognise (a "connector" tier: 2 agents and advanced autonomy; "vip": 5 agents; any other paid tier:
// 1 agent), prices in cents. An operator overrides them with the PLANS_JSON setting (same shape), and may
// name Stripe price ids; without them Checkout is given the price inline.

export type BillingCycle = 'monthly' | 'yearly';

export interface Plan {
  id: string;
  name: string;
  /** Prices in the smallest unit of `currency`. */
  prices: Record<BillingCycle, number>;
  currency: string;
  /** Stripe price ids, when the operator made them in the dashboard. */
  stripePriceIds?: Partial<Record<BillingCycle, string>>;
}

export const DEFAULT_PLANS: readonly Plan[] = [
  { id: 'premium', name: 'Premium', prices: { monthly: 1499, yearly: 11999 }, currency: 'usd' },
  { id: 'connector', name: 'Connector', prices: { monthly: 2499, yearly: 19999 }, currency: 'usd' },
  { id: 'vip', name: 'VIP', prices: { monthly: 3999, yearly: 31999 }, currency: 'usd' },
];

const PLAN_ID = /^[a-z][a-z0-9_-]{0,39}$/;

/** The plans from PLANS_JSON when it is set and valid, else the defaults. */
export function parsePlans(json: string | undefined): readonly Plan[] {
  if (!json) return DEFAULT_PLANS;
  const parsed = JSON.parse(json) as unknown;
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error('PLANS_JSON must be a non-empty array');
  return parsed.map((p: Partial<Plan>) => {
    if (typeof p.id !== 'string' || !PLAN_ID.test(p.id) || p.id === 'free' || p.id === 'basic')
      throw new Error(`PLANS_JSON: bad plan id ${String(p.id)}`);
    if (typeof p.name !== 'string' || !p.prices || typeof p.currency !== 'string')
      throw new Error(`PLANS_JSON: plan ${p.id} needs a name, prices and a currency`);
    for (const cycle of ['monthly', 'yearly'] as const)
      if (!Number.isInteger(p.prices[cycle]) || p.prices[cycle] <= 0)
        throw new Error(`PLANS_JSON: plan ${p.id} needs a ${cycle} price in cents`);
    return p as Plan;
  });
}

export function findPlan(plans: readonly Plan[], id: unknown): Plan | undefined {
  return plans.find((p) => p.id === id);
}

export function isBillingCycle(v: unknown): v is BillingCycle {
  return v === 'monthly' || v === 'yearly';
}

/** How long a period of the cycle lasts, for a payment whose provider did not say. */
export function getPeriodDays(cycle: BillingCycle): number {
  return cycle === 'monthly' ? 31 : 366;
}
