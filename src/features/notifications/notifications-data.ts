// Notifications on the local replica: newest first, unread count, mark one or all read (uploaded as read_at updates),
// and likes in a row shown as one entry ("5 people liked you").
import { useQuery, type PowerSyncDatabase, type ReplicaQueryOptions } from '../../data/replica.tsx';
import type { ReplicaColumns } from '../../data/schema.ts';

/** What the lists read of a notification (type, title and created_at are NOT NULL on the server). */
export type NotificationRow = ReplicaColumns<
  'notifications',
  'id' | 'type' | 'title' | 'body' | 'link' | 'data' | 'read_at' | 'created_at',
  'id' | 'type' | 'title' | 'created_at'
>;

export function useNotifications(me: string, options?: ReplicaQueryOptions) {
  return useQuery<NotificationRow>(
    'select id, type, title, body, link, data, read_at, created_at from notifications where user_id = ? order by created_at desc, id desc',
    [me],
    options,
  );
}

/** The member's unread notifications; undefined until the replica has answered. */
export function useUnreadNotificationCount(me: string): number | undefined {
  const { data, isLoading, error } = useQuery<{ n: number }>(
    'select count(*) as n from notifications where user_id = ? and read_at is null',
    [me],
  );
  return isLoading || error ? undefined : (data[0]?.n ?? 0);
}

export async function markNotificationRead(db: PowerSyncDatabase, id: string): Promise<void> {
  await db.execute('update notifications set read_at = ? where id = ? and read_at is null', [
    new Date().toISOString(),
    id,
  ]);
}

export async function markAllNotificationsRead(db: PowerSyncDatabase, me: string): Promise<void> {
  await db.execute('update notifications set read_at = ? where user_id = ? and read_at is null', [
    new Date().toISOString(),
    me,
  ]);
}

/** Only in-app paths are followed; anything else goes to the notifications page itself. */
export function getNotificationLink(
  n: Pick<NotificationRow, 'link' | 'type'>,
  conversationId?: string,
): string {
  if (n.type === 'message' && conversationId) return `/messages?c=${encodeURIComponent(conversationId)}`;
  return n.link && /^\/(?!\/)/.test(n.link) ? n.link : '/notifications';
}

/** Notification types whose runs are shown as one entry, with the words for several. */
const GROUPED: Record<string, (n: number) => string> = {
  like: (n) => `${n} people liked you`,
};

export interface NotificationGroup {
  /** The newest notification of the run (its link, body and time are shown). */
  head: NotificationRow;
  /** Every notification of the run, newest first. */
  items: NotificationRow[];
  title: string;
  unread: boolean;
}

/**
 * Newest-first rows into what the page lists: a run of notifications of a grouped type (likes) next to each other
 * becomes one entry; every other notification stays on its own.
 */
export function groupNotifications(rows: readonly NotificationRow[]): NotificationGroup[] {
  const groups: NotificationGroup[] = [];
  for (const n of rows) {
    const last = groups[groups.length - 1];
    const words = GROUPED[n.type];
    if (last && words && last.head.type === n.type) {
      last.items.push(n);
      last.title = words(last.items.length);
      last.unread ||= !n.read_at;
      continue;
    }
    groups.push({ head: n, items: [n], title: n.title, unread: !n.read_at });
  }
  return groups;
}
