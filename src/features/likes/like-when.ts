// When a like came, for the likes page: new for a day, and "Liked you today", "… 3 days ago", "… on 12 Nov".
import { formatDayPhrase, parseTimestamp } from '../../ui/time-label.ts';

/** A like counts as new for a day: the card says so. */
export const NEW_LIKE_MS = 24 * 60 * 60 * 1000;

/** Whether a like came within the last day (a like stamped in the future, a clock ahead, is new too). */
export function isNewLike(createdAt: string, now: Date = new Date()): boolean {
  const d = parseTimestamp(createdAt);
  return !!d && now.getTime() - d.getTime() < NEW_LIKE_MS;
}

/** "Liked you today", "… yesterday", "… 3 days ago" within a week, then "… on 12 Nov"; empty when unreadable. */
export function describeLikeWhen(createdAt: string, now: Date = new Date(), locale?: string): string {
  const phrase = formatDayPhrase(createdAt, now, { locale });
  return phrase ? `Liked you ${phrase}` : '';
}
