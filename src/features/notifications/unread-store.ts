// Unread counts for the sidebar, which sits outside the replica provider: published from inside it, read anywhere.
import { createStore, useStore } from '../../ui/external-store.ts';

export interface UnreadCounts {
  notifications: number;
  messages: number;
}

const counts = createStore<UnreadCounts>({ notifications: 0, messages: 0 });

export function publishUnreadCounts(next: UnreadCounts): void {
  const now = counts.get();
  if (next.notifications === now.notifications && next.messages === now.messages) return;
  counts.set(next);
}

export function useUnreadCounts(): UnreadCounts {
  return useStore(counts);
}
