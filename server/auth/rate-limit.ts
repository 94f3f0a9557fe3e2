// Fixed-window rate limits kept in memory. With several server processes on one PostgreSQL each process
// tells the others its hits over the bus, so a limit holds for the community, not per process (decision
// 0052); a hit reaches the others within a notification's delay.
import type { ClusterBus } from '../cluster/cluster-bus.ts';
import { tooManyRequests } from './errors.ts';

export interface RateLimiter {
  /** Counts one hit on each key; throws a 429 AuthHttpError when any key is over its limit. */
  hit(keys: string[]): void;
  /** Hits counted on a key in its current window (this process's and, with a bus, the others'). */
  getCount(key: string): number;
}

export function createRateLimiter(options: {
  max: number;
  windowSeconds: number;
  now?: () => number;
  /** Shares hits with the other processes; `name` tells this limiter's hits from other limiters'. */
  bus?: ClusterBus;
  name?: string;
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

  /** Counts one hit on each key; answers when the last key over its limit opens again (0: none over). */
  function count(keys: string[], t: number): number {
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
    return blockedUntil;
  }

  const { bus } = options;
  const name = options.name ?? 'default';
  if (bus?.shared) {
    bus.on('rate-hits', (m) => {
      if (m.limiter === name) count(m.keys, now());
    });
  }

  return {
    hit(keys) {
      const t = now();
      const blockedUntil = count(keys, t);
      if (bus?.shared) bus.publish('rate-hits', { limiter: name, keys });
      if (blockedUntil > 0) throw tooManyRequests(Math.max(1, Math.ceil((blockedUntil - t) / 1000)));
    },
    getCount(key) {
      const b = buckets.get(key);
      return b && b.resetAt > now() ? b.count : 0;
    },
  };
}
