// Runs in the whole member area: marks arriving messages delivered and shows a browser notification for
// new incoming messages while the page is hidden (if the member allowed it on this device).
import { useEffect, useRef } from 'react';
import { useAuth } from '../../session/auth-context.tsx';
import { useQuery, useReplica } from '../../data/replica.tsx';
import { isCallMessageType } from '../../domain/calls.ts';
import { getNotificationBody, isAiWritten } from './message-text.ts';
import { NOTIFY_MESSAGES_KEY, useDeviceSetting, useMarkDelivered } from './messages-data.ts';

export function MessageWatcher() {
  const { user } = useAuth();
  const me = user?.id;
  const db = useReplica();
  useMarkDelivered(me, db);
  const enabled = useDeviceSetting(NOTIFY_MESSAGES_KEY) !== 'off';
  const { data, isLoading } = useQuery<{
    id: string;
    content: string;
    type: string;
    metadata: string | null;
    name: string | null;
    conversation_id: string;
  }>(
    `select m.id, m.content, m.type, m.metadata, m.conversation_id, pp.name from messages m
     left join public_profiles pp on pp.id = m.sender_id
     where m.recipient_id = ? order by m.created_at desc, m.id desc limit 20`,
    [me ?? ''],
  );
  // Messages already on the device when the watcher starts are not news.
  const seen = useRef<Set<string> | undefined>(undefined);

  useEffect(() => {
    if (isLoading) return;
    if (!seen.current) {
      seen.current = new Set(data.map((m) => m.id));
      return;
    }
    const fresh = data.filter((m) => !seen.current?.has(m.id));
    for (const m of fresh) seen.current.add(m.id);
    if (!enabled || !document.hidden || typeof Notification === 'undefined') return;
    if (Notification.permission !== 'granted') return;
    // A call rings through its own notification (calls/call-host.tsx); its step messages are not news.
    for (const m of fresh.filter((x) => !isCallMessageType(x.type)).slice(0, 3)) {
      const n = new Notification(`New message from ${m.name ?? 'your match'}`, {
        body: m.type === 'image' ? 'Sent a photo' : getNotificationBody(m.content, isAiWritten(m.metadata)),
        tag: `message:${m.id}`,
      });
      n.onclick = () => {
        window.focus();
        window.location.assign(`/messages?c=${encodeURIComponent(m.conversation_id)}`);
      };
    }
  }, [data, enabled, isLoading]);

  return null;
}
