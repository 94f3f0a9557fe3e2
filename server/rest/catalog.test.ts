import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/database.ts';
import { SchemaCache } from './catalog.ts';

/** A database whose catalog queries answer (with no rows) only when released; counts the loads begun. */
function heldDatabase() {
  const waiting: (() => void)[] = [];
  let fingerprints = 0;
  const db: Queryable = {
    async query<T>(text: string) {
      if (text.includes('fingerprint')) {
        fingerprints++;
        await new Promise<void>((r) => waiting.push(r));
        return { rows: [{ fingerprint: `f${fingerprints}` }] as T[], rowCount: 1 };
      }
      return { rows: [] as T[], rowCount: 0 };
    },
    async exec() {},
  };
  return {
    db,
    loadsBegun: () => fingerprints,
    releaseAll: () => waiting.splice(0).forEach((r) => r()),
  };
}

describe('SchemaCache.invalidate', () => {
  it('drops the catalog, and a load under way when it came is answered but not kept', async () => {
    const held = heldDatabase();
    const cache = new SchemaCache(held.db);
    const first = cache.get();
    await new Promise((r) => setTimeout(r, 0));
    expect(held.loadsBegun()).toBe(1);
    // The schema changed while that load was reading it.
    cache.invalidate();
    held.releaseAll();
    expect((await first).fingerprint).toBe('f1');
    // The next request loads again instead of keeping what the first load read.
    const second = cache.get();
    await new Promise((r) => setTimeout(r, 0));
    expect(held.loadsBegun()).toBe(2);
    held.releaseAll();
    expect((await second).fingerprint).toBe('f2');
    // Kept from now on.
    expect((await cache.get()).fingerprint).toBe('f2');
    expect(held.loadsBegun()).toBe(2);
  });
});
