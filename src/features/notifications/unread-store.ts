// Unread counts for the sidebar and the tab bar, which sit outside the replica provider: published from inside
// it (member-background.tsx), read anywhere; until the replica answers, the counts this device showed last.
// Each count published also sets the installed app's icon badge (app-badge.ts).
import { createSnapshotValue, isCount } from '../../data/snapshot-value.ts';
import { registerSignOutCleanup, useAuth } from '../../session/auth-context.tsx';
import { getAppBadgeCount, showAppBadge } from './app-badge.ts';

export interface UnreadCounts {
  notifications: number;
  messages: number;
  /** Likes received since the member last opened the likes page. */
  likes: number;
}

export const NO_UNREAD: UnreadCounts = { notifications: 0, messages: 0, likes: 0 };

const unread = createSnapshotValue<UnreadCounts>(
  'unread',
  (v): v is UnreadCounts =>
    typeof v === 'object' &&
    v !== null &&
    isCount((v as UnreadCounts).notifications) &&
    isCount((v as UnreadCounts).messages) &&
    isCount((v as UnreadCounts).likes),
  (a, b) => a.notifications === b.notifications && a.messages === b.messages && a.likes === b.likes,
);

/**
 * The counts on `me`'s replica now (also on the app's icon); undefined when the replica has gone. The icon keeps
 * its badge while a signed-in member is outside the member area (the landing) and loses it at sign-out.
 */
export function publishUnreadCounts(me: string, counts: UnreadCounts | undefined): void {
  unread.publish(me, counts);
  if (counts) showAppBadge(getAppBadgeCount(counts));
}

registerSignOutCleanup(async () => showAppBadge(0));

/** The signed-in member's unread counts (none while nothing is known). */
export function useUnreadCounts(): UnreadCounts {
  const { user } = useAuth();
  return unread.useValue(user?.id) ?? NO_UNREAD;
}
