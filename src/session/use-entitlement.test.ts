// The cached subscription of spec §4: each published plan is kept on the device for its member, never with a
// payment-provider id, and read back only for the same member.
import { beforeEach, describe, expect, it } from 'vitest';
import { deriveEntitlement, NO_SUBSCRIPTION } from '../domain/subscription.ts';
import { CACHED_PLAN_KEY, publishEntitlement, readCachedPlan } from './use-entitlement.ts';
import { MemoryStorage } from '../data/memory-storage.test-support.ts';

const vip = deriveEntitlement({
  plan_id: 'vip',
  billing_cycle: 'monthly',
  status: 'active',
  current_period_end: '2099-01-01T00:00:00Z',
  stripe_customer_id: 'cus_secret',
  stripe_subscription_id: 'sub_secret',
});

describe('the cached plan', () => {
  beforeEach(() => {
    Object.assign(globalThis, { localStorage: new MemoryStorage() });
  });

  it('keeps the published plan for its member, without provider ids', () => {
    publishEntitlement(vip, 'member-a');
    expect(localStorage.getItem(CACHED_PLAN_KEY)).not.toContain('secret');
    expect(readCachedPlan('member-a')).toEqual({
      planId: 'vip',
      billingCycle: 'monthly',
      expiryDate: '2099-01-01T00:00:00Z',
      hasPaymentCustomer: true,
    });
    expect(readCachedPlan('member-b')).toBeNull();
  });

  it('a later answer replaces it, a plan-less one included; an unknown plan or member writes nothing', () => {
    publishEntitlement(vip, 'member-a');
    publishEntitlement(NO_SUBSCRIPTION, 'member-a');
    expect(readCachedPlan('member-a')).toBeNull();
    publishEntitlement(vip, 'member-a');
    publishEntitlement(undefined, 'member-a');
    publishEntitlement(NO_SUBSCRIPTION);
    expect(readCachedPlan('member-a')?.planId).toBe('vip');
  });

  it('unreadable storage paints nothing', () => {
    localStorage.setItem(CACHED_PLAN_KEY, '{not json');
    expect(readCachedPlan('member-a')).toBeNull();
  });
});
