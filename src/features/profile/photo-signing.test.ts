import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BATCH_WINDOW_MS, createPhotoSigner, type SignMany } from './photo-signing.ts';

describe('photo signing in batches', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('signs the photos asked for at one moment in one call, each key once', async () => {
    const calls: string[][] = [];
    const signMany: SignMany = async (keys) => {
      calls.push(keys);
      return keys.map((k) =>
        k.includes('gone')
          ? { path: k, signedUrl: null, error: 'Not found' }
          : { path: k, signedUrl: `https://x/${k}?token=t`, error: null },
      );
    };
    const sign = createPhotoSigner(async () => signMany);
    const a = sign('m1/a.jpg');
    const b = sign('m2/b.jpg');
    const again = sign('m1/a.jpg');
    const gone = sign('m3/gone.jpg');
    gone.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(BATCH_WINDOW_MS);
    expect(calls).toEqual([['m1/a.jpg', 'm2/b.jpg', 'm3/gone.jpg']]);
    expect(await a).toBe('https://x/m1/a.jpg?token=t');
    expect(await again).toBe('https://x/m1/a.jpg?token=t');
    expect(await b).toBe('https://x/m2/b.jpg?token=t');
    await expect(gone).rejects.toThrow('Not found');

    // A later moment is a new call.
    const c = sign('m4/c.jpg');
    await vi.advanceTimersByTimeAsync(BATCH_WINDOW_MS);
    expect(calls).toHaveLength(2);
    expect(await c).toBe('https://x/m4/c.jpg?token=t');
  });

  it('splits more than 100 keys and fails every waiter of a failed call', async () => {
    const sizes: number[] = [];
    const sign = createPhotoSigner(async () => async (keys) => {
      sizes.push(keys.length);
      if (sizes.length === 2) throw new Error('network');
      return keys.map((k) => ({ path: k, signedUrl: `u/${k}`, error: null }));
    });
    const all = Array.from({ length: 150 }, (_, i) => sign(`k/${i}`));
    for (const p of all) p.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(BATCH_WINDOW_MS);
    expect(sizes).toEqual([100, 50]);
    expect(await all[0]).toBe('u/k/0');
    await expect(all[120]).rejects.toThrow('network');
  });
});
