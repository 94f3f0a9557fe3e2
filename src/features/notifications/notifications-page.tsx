// /notifications: every notification newest first, each linking to its place (likes in a row as one entry);
// mark one or all read. While the replica opens, the rows this device showed last (a screen snapshot, decision
// 0104); a mark-read from them waits for the replica to open.
import { Link } from 'react-router-dom';
import {
  Bell,
  Check,
  Gamepad2,
  Heart,
  HeartHandshake,
  MessageCircle,
  Phone,
  type LucideIcon,
} from 'lucide-react';
import { useAuth } from '../../session/auth-context.tsx';
import { IconBadge } from '../../ui/icon-badge.tsx';
import { openReplica } from '../../data/replica.tsx';
import { useSnapshotRows } from '../../data/snapshot-rows.ts';
import { formatTimeLabel } from '../../ui/time-label.ts';
import {
  getNotificationLink,
  groupNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  useNotifications,
  type NotificationRow,
} from './notifications-data.ts';

/** What a notification is about, at a glance: its type's icon (a bell for any other). */
function getNotificationIcon(type: string): LucideIcon {
  if (type === 'like') return Heart;
  if (type === 'match') return HeartHandshake;
  if (type === 'message') return MessageCircle;
  if (type.startsWith('game_')) return Gamepad2;
  if (type.includes('call')) return Phone;
  return Bell;
}

function findConversationId(n: NotificationRow): string | undefined {
  try {
    const d = JSON.parse(n.data ?? '{}') as { conversation_id?: unknown };
    return typeof d.conversation_id === 'string' ? d.conversation_id : undefined;
  } catch {
    return undefined;
  }
}

/** The page's screen snapshot (screen-snapshots.ts). */
const SNAPSHOT = 'notifications';

export default function NotificationsPage() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  // A new device's replica is empty until its first sync: that is not "No notifications yet".
  const { rows } = useSnapshotRows(SNAPSHOT, me, useNotifications(me, { emptyMeansLoading: true }));
  const unread = rows?.filter((n) => !n.read_at).length ?? 0;
  const groups = groupNotifications(rows ?? []);
  const markRead = async (items: NotificationRow[]) => {
    const db = await openReplica(me);
    await Promise.all(items.filter((n) => !n.read_at).map((n) => markNotificationRead(db, n.id)));
  };
  const markAllRead = async () => markAllNotificationsRead(await openReplica(me), me);

  return (
    <main id="main" className="mx-auto max-w-3xl space-y-4 p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-3xl font-bold">Notifications</h1>
        <button
          type="button"
          className="btn-secondary"
          disabled={unread === 0}
          onClick={() => void markAllRead()}
        >
          Mark all as read
        </button>
      </div>
      <p className="text-sm text-muted" role="status">
        {rows && (unread === 0 ? 'You are all caught up.' : `${unread} unread`)}
      </p>
      {!rows ? (
        <p>Loading...</p>
      ) : rows.length === 0 ? (
        <p className="card">No notifications yet.</p>
      ) : (
        <ul aria-label="Notifications" className="space-y-2">
          {groups.map(({ head: n, items, title, unread: isUnread }) => {
            const Icon = getNotificationIcon(n.type);
            return (
              <li
                key={n.id}
                data-read={isUnread ? 'false' : 'true'}
                data-count={items.length}
                className={`card flex items-start justify-between gap-3 p-4 ${isUnread ? 'border-primary' : ''}`}
              >
                <IconBadge icon={Icon} active={isUnread} />
                <Link
                  to={getNotificationLink(n, findConversationId(n))}
                  className="min-w-0 flex-1"
                  onClick={() => void markRead(items)}
                >
                  <span className="block font-semibold">
                    {isUnread && <span className="sr-only">Unread: </span>}
                    {title}
                  </span>
                  {n.body && <span className="block text-sm text-muted">{n.body}</span>}
                  <time dateTime={n.created_at} className="block text-xs text-muted">
                    {formatTimeLabel(n.created_at)}
                  </time>
                </Link>
                {isUnread && (
                  <button
                    type="button"
                    className="btn-ghost shrink-0 px-2 text-sm sm:px-3"
                    aria-label={`Mark "${title}" as read`}
                    title="Mark read"
                    onClick={() => void markRead(items)}
                  >
                    {/* A tick on a phone, where the words would squeeze the title; words beside it on wider screens. */}
                    <Check aria-hidden="true" className="size-5 sm:hidden" />
                    <span className="hidden sm:inline">Mark read</span>
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </main>
  );
}
