import { describe, expect, it } from 'vitest';
import { followRow } from './follow-row.ts';

const row1 = { bio: '', city: '' };
const row2 = { bio: '', city: 'London' };

describe('followRow', () => {
  it('a form nobody edited takes the row’s new version', () => {
    expect(followRow({ ...row1 }, JSON.stringify(row1), row2, false)).toEqual({ form: row2, taken: true });
  });

  it('keeps an edit queued before the row’s change is applied (the text typed is never replaced)', () => {
    // useFollowRow hands it the form as React applies the update: here the member's typing came first.
    const typed = { ...row1, bio: 'Tea, trains and long walks.' };
    expect(followRow(typed, JSON.stringify(row1), row2, false)).toEqual({ form: typed, taken: false });
  });

  it('a form restored from this device stays, and takes the row as its base on the first read', () => {
    const restored = { ...row1, bio: 'Typed before a reload' };
    expect(followRow(restored, JSON.stringify(row1), row2, true)).toEqual({ form: restored, taken: true });
  });
});
