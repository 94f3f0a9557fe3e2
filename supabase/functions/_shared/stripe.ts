// The Stripe client for functions, from their settings: STRIPE_SECRET_KEY, and STRIPE_API_URL only to point it
// at another Stripe-compatible server (the tests' local peer). Server side only: the key never reaches a browser.
import Stripe from 'stripe';
import { findEnv, getEnv } from './env.ts';

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
