import { describe, expect, it } from 'vitest';
import { describeLikeWhen, isNewLike } from './like-when.ts';

// Local noon, so the calendar days do not depend on the machine's time zone.
const now = new Date(2026, 10, 30, 12, 0, 0);
const at = (daysBefore: number, hour = 9) => new Date(2026, 10, 30 - daysBefore, hour, 0, 0).toISOString();

describe('describeLikeWhen', () => {
  it('says today, yesterday and days ago within a week', () => {
    expect(describeLikeWhen(at(0), now)).toBe('Liked you today');
    expect(describeLikeWhen(at(1, 23), now)).toBe('Liked you yesterday');
    expect(describeLikeWhen(at(2), now)).toBe('Liked you 2 days ago');
    expect(describeLikeWhen(at(6), now)).toBe('Liked you 6 days ago');
  });

  it('gives the date from a week on, with the year only when it is another year', () => {
    expect(describeLikeWhen(at(7), now, 'en-GB')).toBe('Liked you on 23 Nov');
    expect(describeLikeWhen(new Date(2025, 11, 31, 9).toISOString(), now, 'en-GB')).toBe(
      'Liked you on 31 Dec 2025',
    );
  });

  it('reads the server timestamp form and says nothing for one it cannot read', () => {
    expect(describeLikeWhen('2026-11-20 06:45:00+00', new Date('2026-11-30T12:00:00Z'), 'en-GB')).toBe(
      'Liked you on 20 Nov',
    );
    expect(describeLikeWhen('not a time', now)).toBe('');
  });

  it('calls a like from the future today (a clock ahead)', () => {
    expect(describeLikeWhen(new Date(2026, 10, 30, 18).toISOString(), now)).toBe('Liked you today');
  });
});

describe('isNewLike', () => {
  it('is new for a day', () => {
    expect(isNewLike(new Date(now.getTime() - 23 * 3600_000).toISOString(), now)).toBe(true);
    expect(isNewLike(new Date(now.getTime() - 25 * 3600_000).toISOString(), now)).toBe(false);
    expect(isNewLike(new Date(now.getTime() + 3600_000).toISOString(), now)).toBe(true);
    expect(isNewLike('garbage', now)).toBe(false);
  });
});
