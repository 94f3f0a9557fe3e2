import { describe, expect, it } from 'vitest';
import { formatPrice, getPlanFeatures, getTierName } from './payments-api.ts';

describe('payments words', () => {
  it('formats prices from cents in their currency', () => {
    expect(formatPrice(1499, 'usd')).toBe('$14.99');
    expect(formatPrice(0, 'usd')).toBe('$0.00');
    expect(formatPrice(19999, 'eur')).toBe('€199.99');
  });

  it('says what each tier unlocks', () => {
    expect(getPlanFeatures(undefined, 1, false)).toContain('50 likes a day');
    expect(getPlanFeatures('premium', 1, false)).toContain('1 AI agent');
    expect(getPlanFeatures('vip', 5, true)).toContain('5 AI agents with advanced autonomy');
  });

  it('names tiers as members read them', () => {
    expect(getTierName('vip')).toBe('VIP');
    expect(getTierName('connector')).toBe('Connector');
  });
});
