// Background work of the member area inside the replica provider (loaded lazily with it): delivery receipts,
// browser notifications for new messages, what the sidebar and tab bar show (the unread counts of
// notifications, messages and new likes, also on the installed app's icon; the member's own name and photo; the
// plan) and the member's own
// "Show my online status" for presence (which runs in the layout, outside the provider).
import { useEffect } from 'react';
import { useAuth } from '../../session/auth-context.tsx';
import { publishShowOnlineStatus } from '../../session/use-presence.ts';
import { useQuery } from '../../data/replica.tsx';
import { EntitlementPublisher } from '../../app/entitlement-publisher.tsx';
import { useUnreadLikesCount } from '../likes/likes-data.ts';
import { useUnreadNotificationCount } from '../notifications/notifications-data.ts';
import { publishUnreadCounts } from '../notifications/unread-store.ts';
import { parseList } from '../profile/member-photo.tsx';
import { publishOwnCard } from '../profile/own-card-store.ts';
import { MessageWatcher } from './message-watcher.tsx';
import { useUnreadMessageCount } from './messages-data.ts';

function UnreadCountsPublisher({ me }: { me: string }) {
  const notifications = useUnreadNotificationCount(me);
  const messages = useUnreadMessageCount(me);
  const likes = useUnreadLikesCount(me);
  // Once all three are counted: until then the badges show what this device showed last.
  useEffect(() => {
    if (notifications === undefined || messages === undefined || likes === undefined) return;
    publishUnreadCounts(me, { notifications, messages, likes });
  }, [me, notifications, messages, likes]);
  useEffect(() => () => publishUnreadCounts(me, undefined), [me]);
  return null;
}

/** The member's own row: "Show my online status" for presence, name and first photo for the sidebar. */
function OwnRowPublisher({ me }: { me: string }) {
  const { data } = useQuery<{
    show_online_status: number | null;
    name: string | null;
    photos: string | null;
  }>('select show_online_status, name, photos from profiles where id = ?', [me]);
  const row = data[0];
  const value = row?.show_online_status;
  const show = value === undefined || value === null ? undefined : value === 1;
  useEffect(() => publishShowOnlineStatus(show), [show]);
  useEffect(() => () => publishShowOnlineStatus(undefined), []);
  // Before the first sync the row is not on this device yet: the sidebar keeps what it showed last.
  const name = row ? row.name : undefined;
  const photo = row ? (parseList(row.photos)[0] ?? null) : undefined;
  useEffect(() => {
    if (name !== undefined && photo !== undefined) publishOwnCard(me, { name, photo });
  }, [me, name, photo]);
  useEffect(() => () => publishOwnCard(me, undefined), [me]);
  return null;
}

export default function MemberBackground() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <>
      <MessageWatcher />
      <UnreadCountsPublisher me={user.id} />
      <OwnRowPublisher me={user.id} />
      <EntitlementPublisher me={user.id} />
    </>
  );
}
