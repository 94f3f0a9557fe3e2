import { describe, expect, it } from 'vitest';
import { DEFAULT_PLANS, findPlan, getPeriodDays, isBillingCycle, parsePlans } from './plans.ts';

describe('plans', () => {
  it('are the defaults without PLANS_JSON, with the tiers SQL recognises', () => {
    expect(parsePlans(undefined)).toBe(DEFAULT_PLANS);
    expect(DEFAULT_PLANS.map((p) => p.id)).toEqual(['premium', 'connector', 'vip']);
    expect(findPlan(DEFAULT_PLANS, 'vip')?.prices).toEqual({ monthly: 3999, yearly: 31999 });
    expect(findPlan(DEFAULT_PLANS, 'free')).toBeUndefined();
  });

  it('take an operator configuration and refuse one that would not work', () => {
    const mine = [{ id: 'gold', name: 'Gold', prices: { monthly: 999, yearly: 9999 }, currency: 'eur' }];
    expect(parsePlans(JSON.stringify(mine))).toEqual(mine);
    for (const bad of [
      '[]',
      '{}',
      JSON.stringify([{ ...mine[0], id: 'Gold!' }]),
      JSON.stringify([{ ...mine[0], id: 'basic' }]),
      JSON.stringify([{ ...mine[0], prices: { monthly: 0, yearly: 9999 } }]),
      JSON.stringify([{ ...mine[0], prices: { monthly: 9.99, yearly: 9999 } }]),
      JSON.stringify([{ id: 'x', prices: { monthly: 1, yearly: 1 } }]),
    ])
      expect(() => parsePlans(bad), bad).toThrow();
  });

  it('know their billing cycles and how long a period lasts', () => {
    expect(isBillingCycle('monthly')).toBe(true);
    expect(isBillingCycle('weekly')).toBe(false);
    expect(getPeriodDays('monthly')).toBe(31);
    expect(getPeriodDays('yearly')).toBe(366);
  });
});
