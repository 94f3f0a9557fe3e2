import { describe, expect, it } from 'vitest';
import {
  deriveEntitlement,
  getMembershipLabel,
  NO_SUBSCRIPTION,
  resolveEntitlement,
  toCachedSubscription,
  type SubscriptionRecord,
} from './subscription.ts';

const now = new Date('2026-06-01T12:00:00Z');
const paid: SubscriptionRecord = {
  plan_id: 'connector',
  billing_cycle: 'monthly',
  status: 'active',
  current_period_end: '2026-07-01T00:00:00Z',
  stripe_customer_id: 'cus_1',
  stripe_subscription_id: 'sub_1',
};

describe('deriveEntitlement', () => {
  it('a current paid plan is subscribed and premium with its tier', () => {
    expect(deriveEntitlement(paid, now)).toEqual({
      isSubscribed: true,
      tier: 'connector',
      status: 'active',
      expiryDate: '2026-07-01T00:00:00Z',
      billingCycle: 'monthly',
      planId: 'connector',
      stripeCustomerId: 'cus_1',
      stripeSubscriptionId: 'sub_1',
      hasPaymentCustomer: true,
      isFreeUser: false,
      isPremium: true,
    });
  });

  it('incomplete counts as subscribed; canceled and past_due do not', () => {
    expect(deriveEntitlement({ ...paid, status: 'incomplete' }, now).isSubscribed).toBe(true);
    expect(deriveEntitlement({ ...paid, status: 'canceled' }, now).isSubscribed).toBe(false);
    expect(deriveEntitlement({ ...paid, status: 'past_due' }, now).isPremium).toBe(false);
  });

  it('a paid plan past its period end is expired and not subscribed', () => {
    const e = deriveEntitlement({ ...paid, current_period_end: '2026-05-31T23:59:59Z' }, now);
    expect(e).toMatchObject({ status: 'expired', isSubscribed: false, isPremium: false });
  });

  it('a free plan is forced active, counts as a free user and is not premium', () => {
    for (const record of [
      { ...paid, billing_cycle: 'free', status: 'canceled' },
      { ...paid, plan_id: 'basic', stripe_customer_id: null, current_period_end: '2020-01-01T00:00:00Z' },
    ]) {
      expect(deriveEntitlement(record, now)).toMatchObject({
        status: 'active',
        isSubscribed: true,
        tier: 'free',
        isFreeUser: true,
        isPremium: false,
      });
    }
  });

  it('basic with a payment customer is a paid plan', () => {
    expect(deriveEntitlement({ ...paid, plan_id: 'basic' }, now)).toMatchObject({
      tier: 'basic',
      isPremium: true,
    });
  });

  it('elite is the enterprise tier', () => {
    expect(deriveEntitlement({ ...paid, plan_id: 'elite' }, now).tier).toBe('enterprise');
  });

  it('no record means free, status none', () => {
    expect(deriveEntitlement(null, now)).toEqual(NO_SUBSCRIPTION);
  });
});

describe('resolveEntitlement', () => {
  it('signed-out guests get no subscription', () => {
    expect(resolveEntitlement({ signedIn: false, server: paid, now })).toBeUndefined();
  });

  it('the server record wins over the cached one', () => {
    const e = resolveEntitlement({
      signedIn: true,
      server: { ...paid, plan_id: 'vip' },
      cached: { planId: 'connector', billingCycle: 'monthly', expiryDate: null },
      now,
    });
    expect(e?.tier).toBe('vip');
  });

  it('without a server record a cached subscription is active until its date, then expired', () => {
    const cached = {
      planId: 'vip',
      billingCycle: 'monthly',
      expiryDate: '2026-06-02T00:00:00Z',
      stripeCustomerId: 'cus',
    };
    expect(resolveEntitlement({ signedIn: true, server: null, cached, now })).toMatchObject({
      status: 'active',
      isPremium: true,
    });
    expect(
      resolveEntitlement({
        signedIn: true,
        server: null,
        cached: { ...cached, expiryDate: '2026-05-01T00:00:00Z' },
        now,
      }),
    ).toMatchObject({ status: 'expired', isSubscribed: false });
  });

  it('a plan cached from an entitlement paints the same plan, with no provider id kept', () => {
    for (const record of [
      paid,
      { ...paid, stripe_customer_id: null, plan_id: 'vip' },
      { ...paid, billing_cycle: 'free' },
    ]) {
      const shown = deriveEntitlement(record, now);
      const cached = toCachedSubscription(shown);
      expect(JSON.stringify(cached)).not.toContain('cus_1');
      expect(resolveEntitlement({ signedIn: true, server: null, cached, now })).toMatchObject({
        tier: shown.tier,
        isPremium: shown.isPremium,
        hasPaymentCustomer: shown.hasPaymentCustomer,
      });
    }
    expect(toCachedSubscription(NO_SUBSCRIPTION)).toBeNull();
  });

  it('nothing anywhere means the free answer', () => {
    expect(resolveEntitlement({ signedIn: true, server: undefined, now })).toEqual(NO_SUBSCRIPTION);
  });
});

describe('getMembershipLabel', () => {
  it('labels premium members and everyone else', () => {
    expect(getMembershipLabel(deriveEntitlement(paid, now))).toBe('Premium Member');
    expect(getMembershipLabel(deriveEntitlement({ ...paid, billing_cycle: 'free' }, now))).toBe(
      'Free Member',
    );
    expect(getMembershipLabel(undefined)).toBe('Free Member');
  });
});
