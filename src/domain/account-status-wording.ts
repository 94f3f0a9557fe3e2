// Pause durations and the wording of the pause and deletion banners (spec §4, §5).

export const PAUSE_DURATIONS = ['1-week', '1-month', '3-months', '6-months', '1-year'] as const;
export type PauseDuration = (typeof PAUSE_DURATIONS)[number];

export const PAUSE_DURATION_LABELS: Record<PauseDuration, string> = {
  '1-week': '1 week',
  '1-month': '1 month',
  '3-months': '3 months',
  '6-months': '6 months',
  '1-year': '1 year',
};

const DAY_MS = 24 * 60 * 60 * 1000;

export function isPauseDuration(value: unknown): value is PauseDuration {
  return typeof value === 'string' && (PAUSE_DURATIONS as readonly string[]).includes(value);
}

/** Throws 'Invalid pause duration' for anything but the five allowed values. */
export function getPauseDuration(value: unknown): PauseDuration {
  if (!isPauseDuration(value)) throw new Error('Invalid pause duration');
  return value;
}

/** The end of a pause starting at `from` (calendar months and years, as the server computes them). */
export function getPauseEndDate(duration: PauseDuration, from: Date): Date {
  const end = new Date(from.getTime());
  if (duration === '1-week') end.setUTCDate(end.getUTCDate() + 7);
  else if (duration === '1-year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + { '1-month': 1, '3-months': 3, '6-months': 6 }[duration]);
  return end;
}

const plural = (n: number, unit: string) => `${n} more ${unit}${n === 1 ? '' : 's'}`;

/** 'for N more days/weeks/months/years' or 'indefinitely': days under 7, weeks under 30, months under 365, else years. */
export function formatPauseRemaining(endDate: Date | null, now: Date): string {
  if (!endDate) return 'indefinitely';
  const days = Math.max(1, Math.ceil((endDate.getTime() - now.getTime()) / DAY_MS));
  if (days < 7) return `for ${plural(days, 'day')}`;
  if (days < 30) return `for ${plural(Math.floor(days / 7), 'week')}`;
  if (days < 365) return `for ${plural(Math.floor(days / 30), 'month')}`;
  return `for ${plural(Math.floor(days / 365), 'year')}`;
}

export function hasPauseEnded(endDate: Date | null, now: Date): boolean {
  return endDate !== null && endDate.getTime() <= now.getTime();
}

/** The pause banner's sentence. */
export function getPauseBannerText(endDate: Date | null, now: Date): string {
  if (hasPauseEnded(endDate, now))
    return 'Your account pause period has ended. Reactivate to start matching again!';
  return `Your account is paused ${formatPauseRemaining(endDate, now)}. You're hidden from discovery.`;
}

/** Whole days left before the scheduled deletion, counted in calendar days (0 = today). */
export function getDaysUntilDeletion(scheduledFor: Date, now: Date): number {
  return Math.max(0, Math.ceil((scheduledFor.getTime() - now.getTime()) / DAY_MS));
}

export interface DeletionBanner {
  text: string;
  tone: 'red' | 'yellow';
}

/** 'Your account is scheduled for deletion {today|in 1 day|in N days}.' plus a final warning at 1 day or less. */
export function getDeletionBanner(scheduledFor: Date, now: Date): DeletionBanner {
  const days = getDaysUntilDeletion(scheduledFor, now);
  const when = days === 0 ? 'today' : days === 1 ? 'in 1 day' : `in ${days} days`;
  const final = days <= 1;
  return {
    text: `Your account is scheduled for deletion ${when}.${final ? ' This is your final warning!' : ''}`,
    tone: final ? 'red' : 'yellow',
  };
}
