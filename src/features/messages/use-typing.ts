// Typing indicator over realtime broadcast on the private channel conversation:<id> (server/realtime/README.md).
import type { RealtimeChannel } from '@supabase/supabase-js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useOnline } from '../../data/network.ts';
import { getSupabase } from '../../data/supabase-client.ts';
import { TYPING_SEND_INTERVAL_MS, TYPING_SHOW_MS } from './message-text.ts';

const TYPING_EVENT = 'typing';

/** Whether the other member is typing now, and a function to call on each keystroke of ours. */
export function useTyping(conversationId: string | undefined, me: string | undefined) {
  const [otherTyping, setOtherTyping] = useState(false);
  const channelRef = useRef<RealtimeChannel | undefined>(undefined);
  const lastSent = useRef(0);
  // Offline means no request (issue 21): the channel (and its socket) waits for the network.
  const online = useOnline();

  useEffect(() => {
    if (!conversationId || !me || !online) return;
    let stopped = false;
    let hide: ReturnType<typeof setTimeout> | undefined;
    let channel: RealtimeChannel | undefined;
    void getSupabase().then((sb) => {
      if (stopped) return;
      channel = sb.channel(`conversation:${conversationId}`, {
        config: { private: true, broadcast: { self: false } },
      });
      channel
        .on('broadcast', { event: TYPING_EVENT }, ({ payload }: { payload?: { userId?: string } }) => {
          if (payload?.userId === me) return;
          setOtherTyping(true);
          clearTimeout(hide);
          hide = setTimeout(() => setOtherTyping(false), TYPING_SHOW_MS);
        })
        .subscribe();
      channelRef.current = channel;
    });
    return () => {
      stopped = true;
      clearTimeout(hide);
      setOtherTyping(false);
      channelRef.current = undefined;
      if (channel) {
        const c = channel;
        void getSupabase().then((sb) => sb.removeChannel(c));
      }
    };
  }, [conversationId, me, online]);

  const notifyTyping = useCallback(() => {
    const now = Date.now();
    if (!channelRef.current || now - lastSent.current < TYPING_SEND_INTERVAL_MS) return;
    lastSent.current = now;
    void channelRef.current.send({ type: 'broadcast', event: TYPING_EVENT, payload: { userId: me } });
  }, [me]);

  /** A sent message ends "typing" on the other side at the next event; reset so the next keystroke sends again. */
  const resetTyping = useCallback(() => {
    lastSent.current = 0;
  }, []);

  return { otherTyping, notifyTyping, resetTyping };
}
