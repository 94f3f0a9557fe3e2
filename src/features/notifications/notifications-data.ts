// Notifications on the local replica: newest first, unread count, mark one or all read (uploaded as read_at updates).
import { useQuery, type PowerSyncDatabase } from '../../data/replica.tsx';

export interface NotificationRow {
  id: string;
  type: string;
  title: string;
  body: string | null;
  link: string | null;
  data: string | null;
  read_at: string | null;
  created_at: string;
}

export function useNotifications(me: string) {
  return useQuery<NotificationRow>(
    'select id, type, title, body, link, data, read_at, created_at from notifications where user_id = ? order by created_at desc, id desc',
    [me],
  );
}

export function useUnreadNotificationCount(me: string): number {
  const { data } = useQuery<{ n: number }>(
    'select count(*) as n from notifications where user_id = ? and read_at is null',
    [me],
  );
  return data[0]?.n ?? 0;
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
