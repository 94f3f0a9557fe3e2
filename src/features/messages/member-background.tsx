// Background work of the member area inside the replica provider (loaded lazily with it): delivery receipts,
// browser notifications for new messages, the unread counts (notifications, messages, new likes) and the plan
// the sidebar shows, and the member's own
// "Show my online status" for presence (which runs in the layout, outside the provider).
import { useEffect } from 'react';
import { useAuth } from '../../session/auth-context.tsx';
import { publishShowOnlineStatus } from '../../session/use-presence.ts';
import { useQuery } from '../../data/replica.tsx';
import { EntitlementPublisher } from '../../app/entitlement-publisher.tsx';
import { useUnreadLikesCount } from '../likes/likes-data.ts';
import { useUnreadNotificationCount } from '../notifications/notifications-data.ts';
import { NO_UNREAD, publishUnreadCounts } from '../notifications/unread-store.ts';
import { MessageWatcher } from './message-watcher.tsx';
import { useUnreadMessageCount } from './messages-data.ts';

function UnreadCountsPublisher({ me }: { me: string }) {
  const notifications = useUnreadNotificationCount(me) ?? 0;
  const messages = useUnreadMessageCount(me) ?? 0;
  const likes = useUnreadLikesCount(me) ?? 0;
  useEffect(() => publishUnreadCounts({ notifications, messages, likes }), [notifications, messages, likes]);
  useEffect(() => () => publishUnreadCounts(NO_UNREAD), []);
  return null;
}

function OnlineStatusPublisher({ me }: { me: string }) {
  const { data } = useQuery<{ show_online_status: number | null }>(
    'select show_online_status from profiles where id = ?',
    [me],
  );
  const value = data[0]?.show_online_status;
  const show = value === undefined || value === null ? undefined : value === 1;
  useEffect(() => publishShowOnlineStatus(show), [show]);
  useEffect(() => () => publishShowOnlineStatus(undefined), []);
  return null;
}

export default function MemberBackground() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <>
      <MessageWatcher />
      <UnreadCountsPublisher me={user.id} />
      <OnlineStatusPublisher me={user.id} />
      <EntitlementPublisher me={user.id} />
    </>
  );
}
