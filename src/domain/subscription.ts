// The subscription derivation of members-area §4, mirrored from public.get_entitlement (SQL is the
// authority; this is for the browser's fast answer and the offline cached subscription).

/** A subscriptions row as the server stores it (snake_case, like the replica and REST). */
export interface SubscriptionRecord {
  plan_id: string;
  billing_cycle: string;
  status: string;
  current_period_end: string | null;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
}

/** The product's view of a member's subscription. */
export interface Entitlement {
  isSubscribed: boolean;
  tier: string;
  status: string;
  expiryDate: string | null;
  billingCycle: string | null;
  planId: string | null;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  /** A payment-provider customer exists: only then is there a billing portal to open. */
  hasPaymentCustomer: boolean;
  isFreeUser: boolean;
  /** A paid plan that counts now: what premium features and the agent tiers look at. */
  isPremium: boolean;
}

/** Statuses that count as subscribed. */
export const SUBSCRIBED_STATUSES: readonly string[] = ['active', 'incomplete'];

/** What a member with no subscription row gets. */
export const NO_SUBSCRIPTION: Entitlement = {
  isSubscribed: false,
  tier: 'free',
  status: 'none',
  expiryDate: null,
  billingCycle: null,
  planId: null,
  stripeCustomerId: null,
  stripeSubscriptionId: null,
  hasPaymentCustomer: false,
  isFreeUser: true,
  isPremium: false,
};

/** A free plan: billing cycle free, or no payment-provider customer and the basic plan. */
export function isFreePlan(
  record: Pick<SubscriptionRecord, 'billing_cycle' | 'plan_id' | 'stripe_customer_id'>,
): boolean {
  return (
    record.billing_cycle === 'free' || (record.stripe_customer_id === null && record.plan_id === 'basic')
  );
}

/** The tier shown for a plan id: elite is the enterprise tier. */
export function getTierName(planId: string): string {
  return planId === 'elite' ? 'enterprise' : planId;
}

/**
 * The entitlement of a stored subscription at time now, exactly as get_entitlement derives it:
 * a free plan is forced active (but not premium); a paid plan past current_period_end is expired.
 */
export function deriveEntitlement(
  record: SubscriptionRecord | null | undefined,
  now: Date = new Date(),
): Entitlement {
  if (!record) return NO_SUBSCRIPTION;
  const free = isFreePlan(record);
  const periodEnd = record.current_period_end === null ? null : new Date(record.current_period_end);
  const status = free
    ? 'active'
    : periodEnd !== null && periodEnd.getTime() < now.getTime()
      ? 'expired'
      : record.status;
  const isSubscribed = SUBSCRIBED_STATUSES.includes(status);
  return {
    isSubscribed,
    tier: free ? 'free' : getTierName(record.plan_id),
    status,
    expiryDate: record.current_period_end,
    billingCycle: record.billing_cycle,
    planId: record.plan_id,
    stripeCustomerId: record.stripe_customer_id,
    stripeSubscriptionId: record.stripe_subscription_id,
    hasPaymentCustomer: record.stripe_customer_id !== null,
    isFreeUser: free,
    isPremium: isSubscribed && !free,
  };
}

/** A subscriptions row as the replica holds it: no Stripe ids, only whether a customer exists. */
export interface ReplicaSubscriptionRow {
  plan_id: string;
  billing_cycle: string;
  status: string;
  current_period_end: string | null;
  has_payment_customer: number | boolean | null;
}

/**
 * The entitlement of the member's replica row, by the same derivation (the browser's one answer for the
 * sidebar, dashboard, markers and limits, offline too: a paid period keeps counting until it ends).
 */
export function deriveReplicaEntitlement(
  row: ReplicaSubscriptionRow | null | undefined,
  now: Date = new Date(),
): Entitlement {
  if (!row) return NO_SUBSCRIPTION;
  const entitlement = deriveEntitlement(
    {
      plan_id: row.plan_id,
      billing_cycle: row.billing_cycle,
      status: row.status,
      current_period_end: row.current_period_end,
      // Only whether one exists matters to the derivation; the id itself never reaches the browser.
      stripe_customer_id: row.has_payment_customer ? 'on-server' : null,
      stripe_subscription_id: null,
    },
    now,
  );
  return { ...entitlement, stripeCustomerId: null };
}

/** A subscription kept in local storage while no server record is available. */
export interface CachedSubscription {
  planId: string;
  billingCycle: string;
  expiryDate: string | null;
  stripeCustomerId?: string | null;
  stripeSubscriptionId?: string | null;
  /** Whether a payment-provider customer existed (the replica never holds the id itself). */
  hasPaymentCustomer?: boolean;
}

/**
 * What is kept on the device of a member's plan (spec §4: "one key holds the cached subscription"), to paint
 * the last known plan while the replica opens. No provider ids: only whether a customer exists.
 */
export function toCachedSubscription(entitlement: Entitlement): CachedSubscription | null {
  if (entitlement.planId === null || entitlement.billingCycle === null) return null;
  return {
    planId: entitlement.planId,
    billingCycle: entitlement.billingCycle,
    expiryDate: entitlement.expiryDate,
    hasPaymentCustomer: entitlement.hasPaymentCustomer,
  };
}

/**
 * The entitlement the app uses: signed-out guests get none (undefined); a server record wins; with
 * no server record the cached one is used, active unless its date has passed, then expired.
 */
export function resolveEntitlement(input: {
  signedIn: boolean;
  server: SubscriptionRecord | null | undefined;
  cached?: CachedSubscription | null;
  now?: Date;
}): Entitlement | undefined {
  const now = input.now ?? new Date();
  if (!input.signedIn) return undefined;
  if (input.server) return deriveEntitlement(input.server, now);
  const cached = input.cached;
  if (!cached) return NO_SUBSCRIPTION;
  const expired = cached.expiryDate !== null && new Date(cached.expiryDate).getTime() < now.getTime();
  return deriveEntitlement(
    {
      plan_id: cached.planId,
      billing_cycle: cached.billingCycle,
      status: expired ? 'expired' : 'active',
      current_period_end: cached.expiryDate,
      stripe_customer_id: cached.stripeCustomerId ?? (cached.hasPaymentCustomer ? 'on-server' : null),
      stripe_subscription_id: cached.stripeSubscriptionId ?? null,
    },
    now,
  );
}

/** The sidebar's label for the member. */
export function getMembershipLabel(entitlement: Entitlement | undefined): 'Premium Member' | 'Free Member' {
  return entitlement?.isPremium ? 'Premium Member' : 'Free Member';
}
