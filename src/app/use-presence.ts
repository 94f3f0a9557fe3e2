// Presence of spec §4: join online-users keyed by the member, track {userId, lastActivity} once subscribed, refresh every 10 s, keep last_seen.
import type { RealtimeChannel } from '@supabase/supabase-js';
import { useEffect, useSyncExternalStore } from 'react';
import { getSupabase } from '../data/supabase-client.ts';

export const PRESENCE_CHANNEL = 'online-users';
export const PRESENCE_REFRESH_MS = 10_000;

let onlineIds = new Set<string>();
const listeners = new Set<() => void>();

function setOnline(next: Set<string>) {
  onlineIds = next;
  for (const l of listeners) l();
}

export function usePresence(userId: string | undefined): void {
  useEffect(() => {
    if (!userId) return;
    let channel: RealtimeChannel | undefined;
    let timer: ReturnType<typeof setInterval> | undefined;
    let stopped = false;

    void getSupabase().then((sb) => {
      if (stopped) return;
      const touchLastSeen = () =>
        sb
          .from('profiles')
          .update({ last_seen: new Date().toISOString() })
          .eq('id', userId)
          .then(({ error }) => {
            if (error) console.debug('[presence] last_seen not kept', error.message);
          });
      channel = sb.channel(PRESENCE_CHANNEL, { config: { presence: { key: userId } } });
      channel
        .on('presence', { event: 'sync' }, () => {
          setOnline(new Set(Object.keys(channel?.presenceState() ?? {})));
        })
        .subscribe((status) => {
          if (status !== 'SUBSCRIBED' || !channel) return;
          const track = () => channel?.track({ userId, lastActivity: new Date().toISOString() });
          void track();
          void touchLastSeen();
          clearInterval(timer);
          timer = setInterval(() => {
            void track();
            void touchLastSeen();
          }, PRESENCE_REFRESH_MS);
        });
    });
    return () => {
      stopped = true;
      clearInterval(timer);
      if (channel) {
        void channel.untrack();
        void getSupabase().then((sb) => channel && sb.removeChannel(channel));
      }
      setOnline(new Set());
    };
  }, [userId]);
}

/** Whether a member is in the online-users channel right now. */
export function useIsOnline(userId: string | undefined): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => (userId ? onlineIds.has(userId) : false),
  );
}
