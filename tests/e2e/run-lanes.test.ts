// How the journeys' spec files are dealt out to the lanes that run side by side.
import { describe, expect, it } from 'vitest';
import { dealFiles } from './run-lanes.ts';

describe('dealFiles', () => {
  const seconds: Record<string, number> = { a: 100, b: 60, c: 50, d: 30, e: 20 };
  const of = (f: string) => seconds[f] ?? 45;

  it('gives every file to exactly one lane and evens the lanes out, longest first', () => {
    const lanes = dealFiles(['a', 'b', 'c', 'd', 'e'], 2, of);
    expect(lanes.flat().sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
    const totals = lanes.map((l) => l.reduce((sum, f) => sum + of(f), 0));
    // 260 s in all: 130 and 130 (a+d, b+c+e), where dealing in name order would give 180 and 80.
    expect(totals.sort()).toEqual([130, 130]);
  });

  it('counts a file not measured yet at the default, and makes no empty lane', () => {
    expect(dealFiles(['new'], 3, of)).toEqual([['new']]);
    expect(dealFiles(['a', 'b'], 1, of)).toEqual([['a', 'b']]);
    expect(dealFiles([], 2, of)).toEqual([]);
  });
});
