// Background work of the member area inside the replica provider (loaded lazily with it): delivery receipts,
// browser notifications for new messages, and the unread counts the sidebar shows.
import { useEffect } from 'react';
import { useAuth } from '../../app/auth-context.tsx';
import { useUnreadNotificationCount } from '../notifications/notifications-data.ts';
import { publishUnreadCounts } from '../notifications/unread-store.ts';
import { MessageWatcher } from './message-watcher.tsx';
import { useUnreadMessageCount } from './messages-data.ts';

function UnreadCountsPublisher({ me }: { me: string }) {
  const notifications = useUnreadNotificationCount(me);
  const messages = useUnreadMessageCount(me);
  useEffect(() => publishUnreadCounts({ notifications, messages }), [notifications, messages]);
  useEffect(() => () => publishUnreadCounts({ notifications: 0, messages: 0 }), []);
  return null;
}

export default function MemberBackground() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <>
      <MessageWatcher />
      <UnreadCountsPublisher me={user.id} />
    </>
  );
}
