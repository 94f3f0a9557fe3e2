// Unread counts for the sidebar, which sits outside the replica provider: published from inside it, read anywhere.
import { createStore, useStore } from '../../ui/external-store.ts';

export interface UnreadCounts {
  notifications: number;
  messages: number;
  /** Likes received since the member last opened the likes page. */
  likes: number;
}

export const NO_UNREAD: UnreadCounts = { notifications: 0, messages: 0, likes: 0 };

const counts = createStore<UnreadCounts>(NO_UNREAD);

export function publishUnreadCounts(next: UnreadCounts): void {
  const now = counts.get();
  if (next.notifications === now.notifications && next.messages === now.messages && next.likes === now.likes)
    return;
  counts.set(next);
}

export function useUnreadCounts(): UnreadCounts {
  return useStore(counts);
}
