import { describe, expect, it } from 'vitest';
import {
  PAUSE_DURATIONS,
  formatPauseRemaining,
  getDeletionBanner,
  getPauseBannerText,
  getPauseDuration,
  getPauseEndDate,
} from './account-status-wording.ts';

const now = new Date('2025-03-10T12:00:00Z');
const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000);

describe('pause durations', () => {
  it('accepts exactly the five allowed values', () => {
    for (const d of PAUSE_DURATIONS) expect(getPauseDuration(d)).toBe(d);
  });
  it.each(['2-weeks', '', '1-WEEK', null, 7])('refuses %j with Invalid pause duration', (value) => {
    expect(() => getPauseDuration(value)).toThrow('Invalid pause duration');
  });
  it('computes calendar end dates', () => {
    expect(getPauseEndDate('1-week', now).toISOString()).toBe('2025-03-17T12:00:00.000Z');
    expect(getPauseEndDate('3-months', now).toISOString()).toBe('2025-06-10T12:00:00.000Z');
    expect(getPauseEndDate('1-year', now).toISOString()).toBe('2026-03-10T12:00:00.000Z');
  });
});

describe('the pause banner', () => {
  it.each([
    [1, 'for 1 more day'],
    [6, 'for 6 more days'],
    [7, 'for 1 more week'],
    [29, 'for 4 more weeks'],
    [30, 'for 1 more month'],
    [364, 'for 12 more months'],
    [365, 'for 1 more year'],
    [800, 'for 2 more years'],
  ])('%i days left reads %s', (days, text) => {
    expect(formatPauseRemaining(inDays(days), now)).toBe(text);
  });
  it('reads indefinitely without an end date', () => {
    expect(getPauseBannerText(null, now)).toBe(
      "Your account is paused indefinitely. You're hidden from discovery.",
    );
  });
  it('says the pause has ended once the date passed', () => {
    expect(getPauseBannerText(inDays(-1), now)).toBe(
      'Your account pause period has ended. Reactivate to start matching again!',
    );
  });
  it('shows the full sentence while paused', () => {
    expect(getPauseBannerText(inDays(10), now)).toBe(
      "Your account is paused for 1 more week. You're hidden from discovery.",
    );
  });
});

describe('the deletion banner', () => {
  it('is red with a final warning today and in 1 day', () => {
    expect(getDeletionBanner(now, now)).toEqual({
      text: 'Your account is scheduled for deletion today. This is your final warning!',
      tone: 'red',
    });
    expect(getDeletionBanner(inDays(1), now)).toEqual({
      text: 'Your account is scheduled for deletion in 1 day. This is your final warning!',
      tone: 'red',
    });
  });
  it('is yellow with no warning further out', () => {
    expect(getDeletionBanner(inDays(30), now)).toEqual({
      text: 'Your account is scheduled for deletion in 30 days.',
      tone: 'yellow',
    });
    expect(getDeletionBanner(inDays(2), now).tone).toBe('yellow');
  });
});
