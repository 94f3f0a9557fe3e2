import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withMemoryLocalStorage } from './memory-storage.test-support.ts';
import {
  clearScreenSnapshots,
  readScreenSnapshot,
  saveScreenSnapshot,
  SNAPSHOT_MAX_ROWS,
} from './screen-snapshots.ts';

describe('screen snapshots', () => {
  const storage = withMemoryLocalStorage({ beforeEach, afterEach });

  it("gives a member back the rows last shown to them, and never another member's", () => {
    saveScreenSnapshot('match-list', 'ann', [{ id: 'm1', name: 'Bo' }]);
    expect(readScreenSnapshot('match-list', 'ann')).toEqual([{ id: 'm1', name: 'Bo' }]);
    expect(readScreenSnapshot('match-list', 'cy')).toBeUndefined();
    expect(readScreenSnapshot('match-list', '')).toBeUndefined();
    expect(readScreenSnapshot('likes', 'ann')).toBeUndefined();
  });

  it('keeps an empty list (a member with no matches yet) apart from no snapshot at all', () => {
    saveScreenSnapshot('match-list', 'ann', []);
    expect(readScreenSnapshot('match-list', 'ann')).toEqual([]);
  });

  it('keeps at most SNAPSHOT_MAX_ROWS rows, the first ones', () => {
    const rows = Array.from({ length: SNAPSHOT_MAX_ROWS + 7 }, (_, i) => ({ id: String(i) }));
    saveScreenSnapshot('match-list', 'ann', rows);
    const kept = readScreenSnapshot<{ id: string }>('match-list', 'ann');
    expect(kept).toHaveLength(SNAPSHOT_MAX_ROWS);
    expect(kept?.[0]?.id).toBe('0');
  });

  it('reads nothing from a damaged value, and a full storage changes nothing', () => {
    storage().setItem('heartsync.screen.match-list', '{not json');
    expect(readScreenSnapshot('match-list', 'ann')).toBeUndefined();
    storage().setItem('heartsync.screen.match-list', JSON.stringify({ userId: 'ann', rows: 'x' }));
    expect(readScreenSnapshot('match-list', 'ann')).toBeUndefined();
    saveScreenSnapshot('match-list', 'ann', [{ id: 'm1' }]);
    storage().full = true;
    expect(() => saveScreenSnapshot('match-list', 'ann', [{ id: 'm2' }])).not.toThrow();
    expect(readScreenSnapshot('match-list', 'ann')).toEqual([{ id: 'm1' }]);
  });

  it("clears every screen's snapshot and nothing else", () => {
    saveScreenSnapshot('match-list', 'ann', [{ id: 'm1' }]);
    saveScreenSnapshot('likes', 'ann', [{ id: 'l1' }]);
    storage().setItem('heartsync.replicaOwner', 'ann');
    clearScreenSnapshots();
    expect(readScreenSnapshot('match-list', 'ann')).toBeUndefined();
    expect(readScreenSnapshot('likes', 'ann')).toBeUndefined();
    expect(storage().getItem('heartsync.replicaOwner')).toBe('ann');
  });

  it('does nothing without a storage', () => {
    delete (globalThis as unknown as { window?: unknown }).window;
    expect(() => saveScreenSnapshot('match-list', 'ann', [])).not.toThrow();
    expect(readScreenSnapshot('match-list', 'ann')).toBeUndefined();
    expect(() => clearScreenSnapshots()).not.toThrow();
  });
});
