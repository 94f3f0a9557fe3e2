// /notifications: every notification newest first, each linking to its place; mark one or all read.
import { Link } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { useReplica } from '../../data/replica.tsx';
import {
  getNotificationLink,
  markAllNotificationsRead,
  markNotificationRead,
  useNotifications,
  type NotificationRow,
} from './notifications-data.ts';

function findConversationId(n: NotificationRow): string | undefined {
  try {
    const d = JSON.parse(n.data ?? '{}') as { conversation_id?: unknown };
    return typeof d.conversation_id === 'string' ? d.conversation_id : undefined;
  } catch {
    return undefined;
  }
}

export default function NotificationsPage() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const db = useReplica();
  const { data: rows, isLoading } = useNotifications(me);
  const unread = rows.filter((n) => !n.read_at).length;

  return (
    <main id="main" className="mx-auto max-w-3xl space-y-4 p-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-3xl font-bold">Notifications</h1>
        <button
          type="button"
          className="btn-secondary"
          disabled={unread === 0}
          onClick={() => void markAllNotificationsRead(db, me)}
        >
          Mark all as read
        </button>
      </div>
      <p className="text-sm text-muted" role="status">
        {unread === 0 ? 'You are all caught up.' : `${unread} unread`}
      </p>
      {isLoading ? (
        <p>Loading...</p>
      ) : rows.length === 0 ? (
        <p className="card">No notifications yet.</p>
      ) : (
        <ul aria-label="Notifications" className="space-y-2">
          {rows.map((n) => (
            <li
              key={n.id}
              data-read={n.read_at ? 'true' : 'false'}
              className={`card flex items-start justify-between gap-3 ${n.read_at ? '' : 'border-primary'}`}
            >
              <Link
                to={getNotificationLink(n, findConversationId(n))}
                className="min-w-0 flex-1"
                onClick={() => void markNotificationRead(db, n.id)}
              >
                <span className="block font-semibold">
                  {!n.read_at && <span className="sr-only">Unread: </span>}
                  {n.title}
                </span>
                {n.body && <span className="block text-sm text-muted">{n.body}</span>}
                <span className="block text-xs text-muted">{new Date(n.created_at).toLocaleString()}</span>
              </Link>
              {!n.read_at && (
                <button
                  type="button"
                  className="btn-ghost text-sm"
                  aria-label={`Mark "${n.title}" as read`}
                  onClick={() => void markNotificationRead(db, n.id)}
                >
                  Mark read
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
