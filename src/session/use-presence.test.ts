// The presence loop with a fake supabase client: tracked only while the member's own status is shown.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ONLINE_SETTLE_MS, type NetworkEnvironment } from '../data/network.ts';
import {
  LAST_SEEN_EVERY_MS,
  PRESENCE_REFRESH_MS,
  publishShowOnlineStatus,
  startPresence,
  type PresenceClient,
} from './use-presence.ts';

function makeFakeClient() {
  const calls: string[] = [];
  let joins = 0;
  let onStatus: ((status: string) => void) | undefined;
  const channel = {
    on: () => channel,
    subscribe: (cb: (status: string) => void) => {
      onStatus = cb;
      return channel;
    },
    track: async (payload: { userId: string }) => {
      calls.push(`track ${payload.userId}`);
      return 'ok';
    },
    untrack: async () => {
      calls.push('untrack');
      return 'ok';
    },
    presenceState: () => ({}),
  };
  const client = {
    channel: () => {
      joins++;
      return channel;
    },
    removeChannel: async () => {
      calls.push('remove');
      return 'ok';
    },
    from: () => ({
      update: () => ({
        eq: () => {
          calls.push('last_seen');
          return Promise.resolve({ error: null });
        },
      }),
    }),
  } as unknown as PresenceClient;
  return { client, calls, joins: () => joins, subscribed: () => onStatus?.('SUBSCRIBED') };
}

describe('presence on online-users', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    publishShowOnlineStatus(undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tracks only once the status is known to be shown, refreshes every 10 s, untracks when hidden', async () => {
    const fake = makeFakeClient();
    const stop = startPresence(async () => fake.client, 'me');
    await vi.advanceTimersByTimeAsync(0);
    fake.subscribed();
    // Unknown yet (replica not loaded): last_seen kept, never tracked.
    expect(fake.calls).toEqual(['last_seen']);
    publishShowOnlineStatus(true);
    expect(fake.calls).toEqual(['last_seen', 'track me']);
    await vi.advanceTimersByTimeAsync(PRESENCE_REFRESH_MS);
    expect(fake.calls).toEqual(['last_seen', 'track me', 'track me']);
    publishShowOnlineStatus(false);
    expect(fake.calls.at(-1)).toBe('untrack');
    fake.calls.length = 0;
    // Hidden: no more tracks; last_seen (private, its public copy hidden by SQL) kept once a minute.
    await vi.advanceTimersByTimeAsync(LAST_SEEN_EVERY_MS);
    expect(fake.calls).toEqual(['last_seen']);
    stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.calls.at(-1)).toBe('remove');
  });

  it('a member who hides their status from the start is never tracked, even after reconnecting', async () => {
    publishShowOnlineStatus(false);
    const fake = makeFakeClient();
    const stop = startPresence(async () => fake.client, 'me');
    await vi.advanceTimersByTimeAsync(0);
    fake.subscribed();
    await vi.advanceTimersByTimeAsync(2 * PRESENCE_REFRESH_MS);
    fake.subscribed();
    await vi.advanceTimersByTimeAsync(PRESENCE_REFRESH_MS);
    expect(fake.calls.filter((c) => c.startsWith('track') || c === 'untrack')).toEqual([]);
    stop();
  });

  it('offline, the channel is not joined (no socket), is left when the network goes and joined when it is back', async () => {
    const target = new EventTarget();
    let online = false;
    const network: NetworkEnvironment = { isOnline: () => online, target: target as unknown as Window };
    const setNetwork = (next: boolean) => {
      online = next;
      target.dispatchEvent(new Event(next ? 'online' : 'offline'));
    };
    publishShowOnlineStatus(true);
    const fake = makeFakeClient();
    const stop = startPresence(async () => fake.client, 'me', network);
    await vi.advanceTimersByTimeAsync(PRESENCE_REFRESH_MS);
    expect(fake.joins()).toBe(0);
    expect(fake.calls).toEqual([]);

    setNetwork(true);
    await vi.advanceTimersByTimeAsync(ONLINE_SETTLE_MS);
    expect(fake.joins()).toBe(1);
    fake.subscribed();
    expect(fake.calls).toEqual(['track me', 'last_seen']);

    fake.calls.length = 0;
    setNetwork(false);
    expect(fake.calls).toEqual(['remove']);
    // Nothing refreshes into the void while offline.
    await vi.advanceTimersByTimeAsync(3 * PRESENCE_REFRESH_MS);
    expect(fake.calls).toEqual(['remove']);

    setNetwork(true);
    await vi.advanceTimersByTimeAsync(ONLINE_SETTLE_MS);
    expect(fake.joins()).toBe(2);
    fake.subscribed();
    expect(fake.calls.at(-1)).toBe('track me');
    stop();
    expect(fake.calls.slice(-2)).toEqual(['untrack', 'remove']);
  });
});
