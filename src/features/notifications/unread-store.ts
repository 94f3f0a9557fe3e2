// Unread counts for the sidebar, which sits outside the replica provider: published from inside it, read anywhere.
import { useSyncExternalStore } from 'react';

export interface UnreadCounts {
  notifications: number;
  messages: number;
}

let counts: UnreadCounts = { notifications: 0, messages: 0 };
const listeners = new Set<() => void>();

export function publishUnreadCounts(next: UnreadCounts): void {
  if (next.notifications === counts.notifications && next.messages === counts.messages) return;
  counts = next;
  for (const l of listeners) l();
}

export function useUnreadCounts(): UnreadCounts {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => counts,
  );
}
