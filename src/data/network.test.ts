// The network watch that keeps the sync connection closed while the device is offline (issue 21).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createRequestGate,
  isOnline,
  onNetworkChange,
  OfflineError,
  ONLINE_SETTLE_MS,
  whileOnline,
  withNoRequestOffline,
  type NetworkEnvironment,
} from './network.ts';

/** A device whose network is switched by the test, with the browser's online/offline events. */
function fakeDevice(online: boolean) {
  const target = new EventTarget();
  let state = online;
  const env: NetworkEnvironment = { isOnline: () => state, target: target as unknown as Window };
  return {
    env,
    /** Switches the network; one that comes back is left to settle. */
    set(next: boolean) {
      state = next;
      target.dispatchEvent(new Event(next ? 'online' : 'offline'));
      if (next) vi.advanceTimersByTime(ONLINE_SETTLE_MS);
    },
    /** A moment of network, gone again before it settled (a page being left under an offline switch). */
    blip() {
      state = true;
      target.dispatchEvent(new Event('online'));
      vi.advanceTimersByTime(ONLINE_SETTLE_MS / 2);
      state = false;
      target.dispatchEvent(new Event('offline'));
      vi.advanceTimersByTime(ONLINE_SETTLE_MS * 2);
    },
    /** The network is back and the page is left (`pagehide`) before it settled; time goes on. */
    backAsPageIsLeft() {
      state = true;
      target.dispatchEvent(new Event('online'));
      vi.advanceTimersByTime(ONLINE_SETTLE_MS / 2);
      target.dispatchEvent(new Event('pagehide'));
      target.dispatchEvent(new Event('online'));
      vi.advanceTimersByTime(ONLINE_SETTLE_MS * 2);
    },
    /** The page comes back from the back-forward cache. */
    show() {
      target.dispatchEvent(new Event('pageshow'));
    },
    /** Switches the network and sends its event, leaving the time to the test. */
    flip(next: boolean) {
      state = next;
      target.dispatchEvent(new Event(next ? 'online' : 'offline'));
    },
    /** The page is left (`pagehide`). */
    hide() {
      target.dispatchEvent(new Event('pagehide'));
    },
    /** An event with no change (browsers send `online` again after a network switch). */
    repeat() {
      target.dispatchEvent(new Event(state ? 'online' : 'offline'));
    },
  };
}

describe('network', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is online unless the device says otherwise', () => {
    expect(isOnline(fakeDevice(true).env)).toBe(true);
    expect(isOnline(fakeDevice(false).env)).toBe(false);
    expect(isOnline(undefined)).toBe(true);
  });

  it('tells each change once, not repeated events', () => {
    const device = fakeDevice(true);
    const seen: boolean[] = [];
    const stop = onNetworkChange((online) => seen.push(online), device.env);
    device.set(false);
    device.repeat();
    device.set(true);
    device.repeat();
    expect(seen).toEqual([false, true]);
    stop();
    device.set(false);
    expect(seen).toEqual([false, true]);
  });

  it('connects at once when online and follows the network from then on', () => {
    const device = fakeDevice(true);
    const calls: string[] = [];
    const stop = whileOnline(
      () => calls.push('connect'),
      () => calls.push('disconnect'),
      device.env,
    );
    expect(calls).toEqual(['connect']);
    device.set(false);
    device.repeat();
    expect(calls).toEqual(['connect', 'disconnect']);
    device.set(true);
    expect(calls).toEqual(['connect', 'disconnect', 'connect']);
    stop();
    device.set(false);
    expect(calls).toEqual(['connect', 'disconnect', 'connect']);
  });

  it('counts the network back only once it has stayed back', () => {
    const device = fakeDevice(false);
    const seen: boolean[] = [];
    onNetworkChange((online) => seen.push(online), device.env);
    device.blip();
    expect(seen).toEqual([]);
    device.set(true);
    expect(seen).toEqual([true]);
  });

  it('tells a page being left of no return, and a page brought back from the cache again', () => {
    const device = fakeDevice(false);
    const seen: boolean[] = [];
    onNetworkChange((online) => seen.push(online), device.env);
    // Chromium's offline switch lifted as the page closes: online, then pagehide within the settle delay.
    device.backAsPageIsLeft();
    expect(seen).toEqual([]);
    device.show();
    vi.advanceTimersByTime(ONLINE_SETTLE_MS);
    expect(seen).toEqual([true]);
  });

  it('waits for the network before the first connection when started offline', () => {
    const device = fakeDevice(false);
    const calls: string[] = [];
    whileOnline(
      () => calls.push('connect'),
      () => calls.push('disconnect'),
      device.env,
    );
    expect(calls).toEqual([]);
    device.set(true);
    expect(calls).toEqual(['connect']);
  });
});

describe('the request gate', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A fetch that records what went out. */
  function recordingFetch() {
    const sent: string[] = [];
    const impl: typeof fetch = (input) => {
      sent.push(String(input));
      return Promise.resolve(new Response('ok'));
    };
    return { sent, impl };
  }

  it('lets requests out while online and fails them without a request while offline', async () => {
    const device = fakeDevice(true);
    const gate = createRequestGate(device.env);
    const { sent, impl } = recordingFetch();
    const guarded = withNoRequestOffline(impl, gate);
    expect((await guarded('/rest/v1/a')).status).toBe(200);
    device.set(false);
    await expect(guarded('/rest/v1/b')).rejects.toBeInstanceOf(OfflineError);
    await expect(guarded('/rest/v1/b')).rejects.toBeInstanceOf(TypeError);
    expect(sent).toEqual(['/rest/v1/a']);
    gate.stop();
  });

  it('checks when the request is made, not when the work leading to it began', async () => {
    const device = fakeDevice(true);
    const { sent, guarded } = guardedOn(device);
    // A timer saw the network, then awaited something (a token) while the network went.
    expect(isOnline(device.env)).toBe(true);
    device.set(false);
    await expect(guarded('/rest/v1/profiles')).rejects.toThrow(/offline/);
    expect(sent).toEqual([]);
  });

  /** supabase-js's fetch on a device: what it sent, and the guarded fetch. */
  function guardedOn(device: ReturnType<typeof fakeDevice>) {
    const { sent, impl } = recordingFetch();
    return { sent, guarded: withNoRequestOffline(impl, createRequestGate(device.env)) };
  }

  it('fails a request that waited for a network back only for a moment, sending nothing', async () => {
    const device = fakeDevice(false);
    const { sent, guarded } = guardedOn(device);
    device.flip(true);
    const waiting = guarded('/rest/v1/waits').catch((e: unknown) => e);
    vi.advanceTimersByTime(ONLINE_SETTLE_MS / 2);
    device.flip(false);
    vi.advanceTimersByTime(ONLINE_SETTLE_MS);
    expect(await waiting).toBeInstanceOf(OfflineError);
    expect(sent).toEqual([]);
  });

  it('lets a request made as the network returns out once the network has stayed', async () => {
    const device = fakeDevice(false);
    const { sent, guarded } = guardedOn(device);
    device.flip(true);
    const pending = guarded('/rest/v1/back');
    await Promise.resolve();
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(ONLINE_SETTLE_MS);
    expect((await pending).status).toBe(200);
    expect(sent).toEqual(['/rest/v1/back']);
  });

  it('sends nothing from a page being left, even if it sees a moment of network', async () => {
    const device = fakeDevice(true);
    const { sent, guarded } = guardedOn(device);
    device.hide();
    await expect(guarded('/rest/v1/profiles')).rejects.toBeInstanceOf(OfflineError);
    device.flip(false);
    device.flip(true);
    await expect(guarded('/rest/v1/profiles')).rejects.toBeInstanceOf(OfflineError);
    expect(sent).toEqual([]);
    // Brought back from the back-forward cache with a network: requests go out again.
    device.show();
    vi.advanceTimersByTime(ONLINE_SETTLE_MS);
    expect((await guarded('/rest/v1/again')).status).toBe(200);
    expect(sent).toEqual(['/rest/v1/again']);
  });
});
