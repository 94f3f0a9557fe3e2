// The installed app's icon badge (the App Badging API, where the browser offers it): unread messages and new
// likes, as the tab bar counts them, so a member sees from the home screen that someone wrote or liked them.
// Cleared when nothing is waiting and at sign-out. Nothing is sent anywhere: the count is the replica's.

/** The number on the icon for these counts: what the member has not read or seen yet. */
export function getAppBadgeCount(counts: { messages: number; likes: number }): number {
  return counts.messages + counts.likes;
}

type BadgingNavigator = Partial<Pick<Navigator, 'setAppBadge' | 'clearAppBadge'>>;

/** Shows `count` on the app's icon, or clears it at 0; does nothing where the browser has no badge. */
export function showAppBadge(count: number, nav: BadgingNavigator | undefined = globalThis.navigator): void {
  if (!nav?.setAppBadge || !nav.clearAppBadge) return;
  // A browser may refuse (not installed, not allowed): the badge is a nicety, never an error.
  const done = count > 0 ? nav.setAppBadge(count) : nav.clearAppBadge();
  void done.catch(() => undefined);
}
