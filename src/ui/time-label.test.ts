// When something happened: the hour today, the day before it otherwise.
import { describe, expect, it } from 'vitest';
import { formatDayPhrase, formatListTime, formatTimeLabel, parseTimestamp } from './time-label.ts';

// Local times, so the test holds in every time zone the suite runs in.
const now = new Date(2026, 10, 30, 9, 15);
const at = (...p: [number, number, number, number, number]) => new Date(...p).toISOString();

describe('formatTimeLabel', () => {
  it('shows only the time for a message of today, from midnight on', () => {
    expect(formatTimeLabel(at(2026, 10, 30, 6, 45), now, 'en-GB')).toBe('06:45');
    expect(formatTimeLabel(at(2026, 10, 30, 0, 0), now, 'en-GB')).toBe('00:00');
  });

  it('says "Yesterday" for the day before, up to its last minute', () => {
    expect(formatTimeLabel(at(2026, 10, 29, 5, 25), now, 'en-GB')).toBe('Yesterday, 05:25');
    expect(formatTimeLabel(at(2026, 10, 29, 23, 59), now, 'en-GB')).toBe('Yesterday, 23:59');
  });

  it('names the weekday within the last week, and the date before that', () => {
    expect(formatTimeLabel(at(2026, 10, 27, 18, 0), now, 'en-GB')).toBe('Fri, 18:00');
    expect(formatTimeLabel(at(2026, 10, 24, 18, 0), now, 'en-GB')).toBe('Tue, 18:00');
    expect(formatTimeLabel(at(2026, 10, 23, 18, 0), now, 'en-GB')).toBe('23 Nov, 18:00');
  });

  it('adds the year only when it is not this year', () => {
    expect(formatTimeLabel(at(2026, 0, 2, 8, 0), now, 'en-GB')).toBe('2 Jan, 08:00');
    expect(formatTimeLabel(at(2025, 11, 31, 22, 30), now, 'en-GB')).toBe('31 Dec 2025, 22:30');
  });

  it('counts calendar days across a change of the clocks', () => {
    // The last Sunday of October: in zones that change their clocks that day is 25 hours long.
    const monday = new Date(2026, 9, 26, 8, 0);
    expect(formatTimeLabel(at(2026, 9, 25, 1, 30), monday, 'en-GB')).toBe('Yesterday, 01:30');
    expect(formatTimeLabel(at(2026, 9, 24, 23, 30), monday, 'en-GB')).toBe('Sat, 23:30');
  });

  it('shows nothing for a timestamp it cannot read, and reads every stored form', () => {
    expect(formatTimeLabel('not a time', now, 'en-GB')).toBe('');
    expect(formatTimeLabel('', now, 'en-GB')).toBe('');
    expect(parseTimestamp('2026-11-30 06:45:00Z')?.toISOString()).toBe('2026-11-30T06:45:00.000Z');
    expect(parseTimestamp('2026-11-30T06:45:00+00:00')?.toISOString()).toBe('2026-11-30T06:45:00.000Z');
    expect(parseTimestamp('2026-11-30T07:45:00.5+01:00')?.toISOString()).toBe('2026-11-30T06:45:00.500Z');
    expect(parseTimestamp('2026-11-30 06:45:00.123+00')?.toISOString()).toBe('2026-11-30T06:45:00.123Z');
    // Without a zone: the server's time, UTC, whatever the device's zone.
    expect(parseTimestamp('2026-11-30 06:45:00')?.toISOString()).toBe('2026-11-30T06:45:00.000Z');
  });

  it('treats a message stamped a little ahead of this device as of today', () => {
    expect(formatTimeLabel(at(2026, 10, 30, 9, 16), now, 'en-GB')).toBe('09:16');
  });
});

describe('formatDayPhrase', () => {
  const now = new Date(2026, 10, 30, 12, 0, 0);
  const daysBefore = (n: number, hour = 9) => new Date(2026, 10, 30 - n, hour, 0, 0).toISOString();

  it('says today, yesterday and days ago, then the date', () => {
    expect(formatDayPhrase(daysBefore(0), now)).toBe('today');
    expect(formatDayPhrase(daysBefore(1, 23), now)).toBe('yesterday');
    expect(formatDayPhrase(daysBefore(6), now)).toBe('6 days ago');
    expect(formatDayPhrase(daysBefore(7), now, { locale: 'en-GB' })).toBe('on 23 Nov');
    expect(formatDayPhrase(daysBefore(2), now, { daysInWords: 2, locale: 'en-GB' })).toBe('on 28 Nov');
    expect(formatDayPhrase(new Date(2025, 11, 31).toISOString(), now, { locale: 'en-GB' })).toBe(
      'on 31 Dec 2025',
    );
  });

  it('is of today when stamped ahead of this device, and undefined when unreadable', () => {
    expect(formatDayPhrase(new Date(2026, 10, 30, 18).toISOString(), now)).toBe('today');
    expect(formatDayPhrase('not a time', now)).toBeUndefined();
  });
});

describe('formatListTime', () => {
  const now = new Date(2026, 10, 30, 12, 0, 0);
  it('shows the time today, then Yesterday, the weekday and the date', () => {
    expect(formatListTime(new Date(2026, 10, 30, 9, 5).toISOString(), now, 'en-GB')).toBe('09:05');
    expect(formatListTime(new Date(2026, 10, 29, 23, 59).toISOString(), now, 'en-GB')).toBe('Yesterday');
    expect(formatListTime(new Date(2026, 10, 26, 9).toISOString(), now, 'en-GB')).toBe('Thu');
    expect(formatListTime(new Date(2026, 10, 23, 9).toISOString(), now, 'en-GB')).toBe('23 Nov');
    expect(formatListTime('not a time', now)).toBe('');
  });
});
