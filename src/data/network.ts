// Offline means no request until the network returns (issue 21, decision 0067): the sync connection is
// closed while the device has no network and opened again when it returns, the service worker is told, so
// its own fetches (the app's config, photos) answer from its caches without trying the network, and the
// page reads its config from that cache instead of asking.
//
// `navigator.onLine === false` is trusted: browsers report it only when no network interface is up (or the
// developer tools' offline switch is on). `true` can be wrong (a captive portal); that case is left to each
// request's own failure and retry.

import { useSyncExternalStore } from 'react';

/** The message a page sends its service worker: `{ type, online }` (public/sw-network.js reads it). */
export const NETWORK_MESSAGE = 'heartsync-network';

type NetworkTarget = Pick<Window, 'addEventListener' | 'removeEventListener'>;

export interface NetworkEnvironment {
  isOnline(): boolean;
  target: NetworkTarget;
}

function browserEnvironment(): NetworkEnvironment | undefined {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return undefined;
  return { isOnline: () => navigator.onLine !== false, target: window };
}

/** False only when the device says it has no network. */
export function isOnline(env: NetworkEnvironment | undefined = browserEnvironment()): boolean {
  return env ? env.isOnline() : true;
}

/**
 * How long the network must stay back before it counts as back. A network that returns stays; a page being
 * left can see a moment of `online` (Chromium's offline switch, lifted as a page closes or reloads), and
 * what waited for the network must not go out then.
 */
export const ONLINE_SETTLE_MS = 1000;

/**
 * Calls `listener` with the new state each time the network goes (at once) or comes back (once it has stayed
 * back for ONLINE_SETTLE_MS); returns the unsubscribe. A page being left (`pagehide`, until a `pageshow`
 * brings it back from the back-forward cache) hears of no return: it starts nothing it would not finish.
 */
export function onNetworkChange(
  listener: (online: boolean) => void,
  env: NetworkEnvironment | undefined = browserEnvironment(),
): () => void {
  if (!env) return () => undefined;
  let last = env.isOnline();
  let settling: ReturnType<typeof setTimeout> | undefined;
  let leaving = false;
  const report = (now: boolean) => {
    if (now === last) return;
    last = now;
    listener(now);
  };
  const changed = () => {
    clearTimeout(settling);
    settling = undefined;
    if (!env.isOnline()) return report(false);
    if (leaving) return;
    settling = setTimeout(() => {
      settling = undefined;
      if (env.isOnline() && !leaving) report(true);
    }, ONLINE_SETTLE_MS);
  };
  const hidden = () => {
    leaving = true;
    clearTimeout(settling);
    settling = undefined;
  };
  const shown = () => {
    leaving = false;
    changed();
  };
  env.target.addEventListener('online', changed);
  env.target.addEventListener('offline', changed);
  env.target.addEventListener('pagehide', hidden);
  env.target.addEventListener('pageshow', shown);
  return () => {
    clearTimeout(settling);
    env.target.removeEventListener('online', changed);
    env.target.removeEventListener('offline', changed);
    env.target.removeEventListener('pagehide', hidden);
    env.target.removeEventListener('pageshow', shown);
  };
}

/**
 * Runs `connect` while online and `disconnect` when the network goes, from now on: connects at once when
 * online, else at the network's return. Returns the stop (which does not disconnect).
 */
export function whileOnline(
  connect: () => void,
  disconnect: () => void,
  env: NetworkEnvironment | undefined = browserEnvironment(),
): () => void {
  if (isOnline(env)) connect();
  return onNetworkChange((online) => (online ? connect() : disconnect()), env);
}

const subscribeToNetwork = (onChange: () => void) => onNetworkChange(onChange);

/** Whether the device has a network, as a React state (photos and Lovy need it; the replica does not). */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeToNetwork,
    () => isOnline(),
    () => true,
  );
}

function tellServiceWorker(online: boolean): void {
  const sw = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  sw?.controller?.postMessage({ type: NETWORK_MESSAGE, online });
}

let watching = false;

/**
 * Keeps the service worker told of the network state: at once, whenever it changes and whenever a new
 * worker takes control. Started once by the entry script.
 */
export function startTellingServiceWorker(): void {
  if (watching || typeof navigator === 'undefined' || !navigator.serviceWorker) return;
  watching = true;
  tellServiceWorker(isOnline());
  onNetworkChange(tellServiceWorker);
  navigator.serviceWorker.addEventListener('controllerchange', () => tellServiceWorker(isOnline()));
}

/** Whether a request may go out; `stop` ends the watch. */
export interface RequestGate {
  /**
   * True at once while the network is there and has stayed; false at once without a network or while the
   * page is being left; a network just back is waited for until it counts as back (at most ONLINE_SETTLE_MS).
   */
  mayRequest(): Promise<boolean>;
  stop(): void;
}

/**
 * Lets a request go out only while the device has a network that has stayed back (ONLINE_SETTLE_MS) and the
 * page is not being left. Checked when the request is made, not when the work that leads to it started: a
 * timer that checked `isOnline()` and then awaited a token would otherwise send into a network that went
 * meanwhile, and a page being left under Chromium's offline switch sees a moment of `online`.
 */
export function createRequestGate(env: NetworkEnvironment | undefined = browserEnvironment()): RequestGate {
  if (!env) return { mayRequest: () => Promise.resolve(true), stop: () => undefined };
  let settled = env.isOnline();
  let leaving = false;
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const w of [...waiting]) w();
  };
  const stopWatch = onNetworkChange((online) => {
    settled = online;
    wake();
  }, env);
  const hidden = () => {
    leaving = true;
    wake();
  };
  const shown = () => {
    leaving = false;
  };
  env.target.addEventListener('pagehide', hidden);
  env.target.addEventListener('pageshow', shown);
  const now = (): boolean | undefined => {
    if (leaving || !env.isOnline()) return false;
    return settled ? true : undefined;
  };
  return {
    mayRequest() {
      const answer = now();
      if (answer !== undefined) return Promise.resolve(answer);
      return new Promise<boolean>((resolve) => {
        // Woken by the settle report or the page being left; at the latest, a network that stayed for the
        // settle time counts as back.
        const done = () => {
          clearTimeout(timer);
          waiting.delete(done);
          resolve(!leaving && env.isOnline());
        };
        const timer = setTimeout(done, ONLINE_SETTLE_MS);
        waiting.add(done);
      });
    },
    stop() {
      stopWatch();
      env.target.removeEventListener('pagehide', hidden);
      env.target.removeEventListener('pageshow', shown);
      wake();
    },
  };
}

/** The error a request refused by the gate fails with: what `fetch` throws without a network. */
export class OfflineError extends TypeError {
  constructor() {
    super('Failed to fetch: the device is offline');
    this.name = 'OfflineError';
  }
}

/** A fetch that fails without a request while the gate is shut (offline means no request). */
export function withNoRequestOffline(fetchImpl: typeof fetch, gate: RequestGate): typeof fetch {
  return async (input, init) => {
    if (!(await gate.mayRequest())) throw new OfflineError();
    return fetchImpl(input, init);
  };
}
