import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withMemoryLocalStorage } from './memory-storage.test-support.ts';
import { clearScreenSnapshots, saveScreenSnapshot } from './screen-snapshots.ts';
import { createSnapshotValue } from './snapshot-value.ts';

interface Counts {
  n: number;
}

const isCounts = (v: unknown): v is Counts =>
  typeof v === 'object' && v !== null && typeof (v as Counts).n === 'number';

describe('a value published from the replica and kept as a snapshot', () => {
  const storage = withMemoryLocalStorage({ beforeEach, afterEach });

  it('gives the published value to its member only, and what the device showed last after a reload', () => {
    const value = createSnapshotValue<Counts>('t-counts', isCounts, (a, b) => a.n === b.n);
    expect(value.read('ann')).toBeUndefined();
    value.publish('ann', { n: 3 });
    expect(value.read('ann')).toEqual({ n: 3 });
    expect(value.read('cy')).toBeUndefined();
    expect(value.read(undefined)).toBeUndefined();
    // A page load: nothing published yet in this module, the snapshot answers for the same member alone.
    const reloaded = createSnapshotValue<Counts>('t-counts', isCounts, (a, b) => a.n === b.n);
    expect(reloaded.read('ann')).toEqual({ n: 3 });
    expect(reloaded.read('cy')).toBeUndefined();
    // The replica's answer replaces it, and is kept in turn.
    reloaded.publish('ann', { n: 0 });
    expect(reloaded.read('ann')).toEqual({ n: 0 });
    expect(createSnapshotValue<Counts>('t-counts', isCounts, (a, b) => a.n === b.n).read('ann')).toEqual({
      n: 0,
    });
  });

  it('forgets the published value when the replica goes, and keeps nothing at sign-out', () => {
    const value = createSnapshotValue<Counts>('t-gone', isCounts, (a, b) => a.n === b.n);
    value.publish('ann', { n: 2 });
    value.publish('ann', undefined);
    // The replica went (the snapshot is what a sign-out then clears).
    expect(value.read('ann')).toEqual({ n: 2 });
    clearScreenSnapshots();
    expect(value.read('ann')).toBeUndefined();
  });

  it('reads no snapshot of the wrong shape (written by an older version, or tampered with)', () => {
    saveScreenSnapshot('t-shape', 'ann', [{ n: 'three' }]);
    const value = createSnapshotValue<Counts>('t-shape', isCounts, (a, b) => a.n === b.n);
    expect(value.read('ann')).toBeUndefined();
  });

  it('writes the snapshot only when the value changes', () => {
    const value = createSnapshotValue<Counts>('t-writes', isCounts, (a, b) => a.n === b.n);
    value.publish('ann', { n: 1 });
    storage().removeItem('heartsync.screen.t-writes');
    value.publish('ann', { n: 1 });
    expect(storage().getItem('heartsync.screen.t-writes')).toBeNull();
    value.publish('ann', { n: 2 });
    expect(storage().getItem('heartsync.screen.t-writes')).not.toBeNull();
  });
});
