// Fixed-window rate limits kept in memory: right for one server process (the self-contained mode);
// several processes behind a balancer would each count separately (see docs/decisions).
import { tooManyRequests } from './errors.ts';

export interface RateLimiter {
  /** Counts one hit on each key; throws a 429 AuthHttpError when any key is over its limit. */
  hit(keys: string[]): void;
}

export function createRateLimiter(options: {
  max: number;
  windowSeconds: number;
  now?: () => number;
}): RateLimiter {
  const now = options.now ?? Date.now;
  const windowMs = options.windowSeconds * 1000;
  const buckets = new Map<string, { count: number; resetAt: number }>();
  let lastSweep = now();

  function sweep(t: number) {
    // Drop finished windows now and then, so memory stays bounded by the keys active in one window.
    if (t - lastSweep < windowMs) return;
    lastSweep = t;
    for (const [k, b] of buckets) if (b.resetAt <= t) buckets.delete(k);
  }

  return {
    hit(keys) {
      const t = now();
      sweep(t);
      let blockedUntil = 0;
      for (const key of keys) {
        let b = buckets.get(key);
        if (!b || b.resetAt <= t) {
          b = { count: 0, resetAt: t + windowMs };
          buckets.set(key, b);
        }
        b.count += 1;
        if (b.count > options.max) blockedUntil = Math.max(blockedUntil, b.resetAt);
      }
      if (blockedUntil > 0) throw tooManyRequests(Math.max(1, Math.ceil((blockedUntil - t) / 1000)));
    },
  };
}
