// The Stripe client for functions, from their settings: STRIPE_SECRET_KEY, and STRIPE_API_URL only to point it
// at another Stripe-compatible server (the tests' local peer). Server side only: the key never reaches a browser.
import Stripe from 'stripe';
import { findEnv, getEnv } from './env.ts';
import { createServiceClient } from './supabase.ts';

export function isStripeConfigured(): boolean {
  return !!findEnv('STRIPE_SECRET_KEY');
}

export function createStripe(): Stripe {
  const api = findEnv('STRIPE_API_URL');
  const url = api ? new URL(api) : undefined;
  return new Stripe(getEnv('STRIPE_SECRET_KEY'), {
    maxNetworkRetries: 1,
    timeout: 10_000,
    ...(url
      ? {
          host: url.hostname,
          port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
          protocol: url.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** The Stripe customer of a member, when Stripe knows them (their subscriptions row keeps it). */
export async function findStripeCustomerId(userId: string): Promise<string | undefined> {
  const { data } = await createServiceClient()
    .from('subscriptions')
    .select('stripe_customer_id')
    .eq('user_id', userId)
    .maybeSingle();
  return (data as { stripe_customer_id?: string | null } | null)?.stripe_customer_id ?? undefined;
}
