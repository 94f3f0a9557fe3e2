import { describe, expect, it } from 'vitest';
import { followRow } from './follow-row.ts';

const row1 = { bio: '', city: '' };
const row2 = { bio: '', city: 'London' };

describe('followRow', () => {
  it('a form nobody edited takes the row’s new version', () => {
    expect(followRow({ ...row1 }, JSON.stringify(row1), row2)).toEqual({ form: row2, taken: true });
  });

  it('keeps an edit queued before the row’s change is applied (the text typed is never replaced)', () => {
    // useFollowRow hands it the form as React applies the update: here the member's typing came first.
    const typed = { ...row1, bio: 'Tea, trains and long walks.' };
    expect(followRow(typed, JSON.stringify(row1), row2)).toEqual({ form: typed, taken: false });
  });
});
