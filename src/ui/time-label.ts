// When something happened, as a chat or a list of notifications shows it: the hour today, the day before it otherwise.

/** A time with its zone at the end (`Z`, `+00`, `+00:00`, `+0000`). */
const ZONED = /\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d(?::?\d\d)?)$/;

/**
 * A stored timestamp: as the replica holds it (`2026-11-30T06:45:00.123+00:00`, what the sync service sends;
 * `2026-11-30T06:45:00.123Z`, what the app writes) or as PostgreSQL prints it (`2026-11-30 06:45:00+00`).
 * One without a zone is the server's, so UTC.
 */
export function parseTimestamp(at: string): Date | undefined {
  const d = new Date(ZONED.test(at) ? at : `${at.replace(' ', 'T')}Z`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

function startOfDay(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/**
 * The time for today's messages; "Yesterday" and the time; the weekday and the time within the last week; the
 * day and month (and the year, when it is not this year's) before that. A conversation read days later shows
 * when each message was written, not only the hour (every message read "05:25 AM", a day old or not), and a
 * notification says when in the same words (it showed "11/30/2026, 8:08:08 AM").
 * `locale` is for tests; the member's own locale otherwise.
 */
export function formatTimeLabel(at: string, now: Date = new Date(), locale?: string): string {
  const d = parseTimestamp(at);
  if (!d) return '';
  const time = d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  const days = getCalendarDaysAgo(d, now);
  if (days <= 0) return time;
  if (days === 1) return `Yesterday, ${time}`;
  if (days < 7) return `${d.toLocaleDateString(locale, { weekday: 'short' })}, ${time}`;
  return `${formatShortDate(d, now, locale)}, ${time}`;
}

/**
 * When, as short as a list of conversations shows it: the time today, then "Yesterday", the weekday within the
 * last week, and the date before that. Empty for a timestamp it cannot read. `locale` is for tests.
 */
export function formatListTime(at: string, now: Date = new Date(), locale?: string): string {
  const d = parseTimestamp(at);
  if (!d) return '';
  const days = getCalendarDaysAgo(d, now);
  if (days <= 0) return d.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  if (days === 1) return 'Yesterday';
  if (days < 7) return d.toLocaleDateString(locale, { weekday: 'short' });
  return formatShortDate(d, now, locale);
}

/**
 * The day of something in words to follow a verb ("Liked you …", "Blocked …"): "today", "yesterday", "3 days
 * ago" within `daysInWords` days, before that "on 12 Nov" (with the year when it is not this year's). Something
 * stamped a little ahead of this device is of today. Undefined for a timestamp it cannot read.
 */
export function formatDayPhrase(
  at: string,
  now: Date = new Date(),
  { daysInWords = 7, locale }: { daysInWords?: number; locale?: string } = {},
): string | undefined {
  const d = parseTimestamp(at);
  if (!d) return undefined;
  const days = getCalendarDaysAgo(d, now);
  if (days <= 0) return 'today';
  if (days === 1) return 'yesterday';
  if (days < daysInWords) return `${days} days ago`;
  return `on ${formatShortDate(d, now, locale)}`;
}

/** Whole calendar days from d to now in the member's own time zone (a day with a clock change is 23 or 25 h). */
function getCalendarDaysAgo(d: Date, now: Date): number {
  return Math.round((startOfDay(now) - startOfDay(d)) / 86_400_000);
}

/** "12 Nov", with the year when it is not this year's. */
function formatShortDate(d: Date, now: Date, locale: string | undefined): string {
  return d.toLocaleDateString(locale, {
    day: 'numeric',
    month: 'short',
    ...(d.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
  });
}
