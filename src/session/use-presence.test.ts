// The presence loop with a fake supabase client: tracked only while the member's own status is shown.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  LAST_SEEN_EVERY_MS,
  PRESENCE_REFRESH_MS,
  publishShowOnlineStatus,
  startPresence,
  type PresenceClient,
} from './use-presence.ts';

function makeFakeClient() {
  const calls: string[] = [];
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
    channel: () => channel,
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
  return { client, calls, subscribed: () => onStatus?.('SUBSCRIBED') };
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
});
