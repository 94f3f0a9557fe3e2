// Presence of spec §4: join online-users keyed by the member, track {userId, lastActivity} once subscribed, refresh every 10 s, keep last_seen.
// A member whose "Show my online status" is off is never tracked (the server refuses it too: server/realtime).
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { useEffect, useSyncExternalStore } from 'react';
import { getSupabase } from '../data/supabase-client.ts';
import { isOnline, whileOnline, type NetworkEnvironment } from '../data/network.ts';

export const PRESENCE_CHANNEL = 'online-users';
export const PRESENCE_REFRESH_MS = 10_000;
/**
 * last_seen is written at most this often: each write also rewrites the member's public_profiles row
 * (for the REST API; the cards other members' devices hold leave last_seen out, decision 0111).
 */
export const LAST_SEEN_EVERY_MS = 60_000;

let onlineIds = new Set<string>();
/** The member's own show_online_status as the replica holds it; undefined until the replica has said. */
let showOwnStatus: boolean | undefined;
const listeners = new Set<() => void>();
const settingListeners = new Set<() => void>();

function notify() {
  for (const l of listeners) l();
}

function setOnline(next: Set<string>) {
  onlineIds = next;
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Published from inside the replica provider (the layout that runs presence sits outside it). Until a
 * value arrives the member is not tracked, so a hidden status is never shown even for a moment.
 */
export function publishShowOnlineStatus(show: boolean | undefined): void {
  if (show === showOwnStatus) return;
  showOwnStatus = show;
  for (const l of settingListeners) l();
  notify();
}

/** The part of supabase-js presence uses (a fake in the unit test). */
export type PresenceClient = Pick<SupabaseClient, 'channel' | 'from' | 'removeChannel'>;

/**
 * Joins online-users as the member and keeps their entry: tracked only while their own status is shown,
 * refreshed every 10 s, untracked at once when it is turned off. Offline means no request (issue 21): the
 * channel is left while the device has no network (its socket closes with it, instead of retrying into the
 * void) and joined again once the network is back. Returns the function that stops it all.
 */
export function startPresence(
  getClient: () => Promise<PresenceClient>,
  userId: string,
  network?: NetworkEnvironment,
): () => void {
  let channel: RealtimeChannel | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let subscribed = false;
  let tracked = false;
  let stopped = false;
  let stopWatching = () => {};

  const track = () => {
    if (!channel || !subscribed || showOwnStatus !== true) return;
    tracked = true;
    // The server refuses while it still has the setting off (an upload in flight): the next refresh retries.
    void channel.track({ userId, lastActivity: new Date().toISOString() });
  };
  const untrack = () => {
    if (!channel || !tracked) return;
    tracked = false;
    void channel.untrack();
  };
  const onSetting = () => {
    if (showOwnStatus === true && !tracked) track();
    else if (showOwnStatus !== true) untrack();
  };
  settingListeners.add(onSetting);

  void getClient().then((sb) => {
    if (stopped) return;
    let lastTouched = -Infinity;
    const touchLastSeen = () => {
      // Offline means no request: the next refresh once the network is back keeps it.
      if (!isOnline(network) || Date.now() - lastTouched < LAST_SEEN_EVERY_MS) return;
      lastTouched = Date.now();
      return sb
        .from('profiles')
        .update({ last_seen: new Date().toISOString() })
        .eq('id', userId)
        .then(({ error }) => {
          if (error) console.debug('[presence] last_seen not kept', error.message);
        });
    };
    const join = () => {
      if (channel) return;
      const joined = sb.channel(PRESENCE_CHANNEL, { config: { presence: { key: userId } } });
      channel = joined;
      joined
        .on('presence', { event: 'sync' }, () => {
          if (channel === joined) setOnline(new Set(Object.keys(joined.presenceState())));
        })
        .subscribe((status) => {
          if (channel !== joined) return;
          subscribed = status === 'SUBSCRIBED';
          if (!subscribed) return;
          track();
          // last_seen is the member's own (private) column; its public copy follows show_online_status in SQL.
          void touchLastSeen();
          clearInterval(timer);
          timer = setInterval(() => {
            track();
            void touchLastSeen();
          }, PRESENCE_REFRESH_MS);
        });
    };
    const leave = () => {
      clearInterval(timer);
      const left = channel;
      channel = undefined;
      subscribed = false;
      tracked = false;
      // Who is online is not known without a network: nobody is shown as online until it is back.
      setOnline(new Set());
      if (left) void sb.removeChannel(left);
    };
    const unwatch = whileOnline(join, leave, network);
    stopWatching = () => {
      unwatch();
      untrack();
      leave();
    };
  });
  return () => {
    stopped = true;
    settingListeners.delete(onSetting);
    stopWatching();
    clearInterval(timer);
    setOnline(new Set());
  };
}

export function usePresence(userId: string | undefined): void {
  useEffect(() => (userId ? startPresence(getSupabase, userId) : undefined), [userId]);
}

/** Whether a member is in the online-users channel right now. */
export function useIsOnline(userId: string | undefined): boolean {
  return useSyncExternalStore(subscribe, () => (userId ? onlineIds.has(userId) : false));
}

/** Whether the member hides their own online status (false while unknown). */
export function useHidesOwnStatus(): boolean {
  return useSyncExternalStore(subscribe, () => showOwnStatus === false);
}
