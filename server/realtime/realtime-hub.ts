// The in-memory state of one realtime process: who joined which topic, presence per topic, and fan-out.
import crypto from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { JwtClaims } from '../auth/keys.ts';
import type { ClusterBus } from '../cluster/cluster-bus.ts';
import { encodeBinaryBroadcast, ENCODING_JSON, type PhoenixMessage, type Vsn } from './protocol.ts';
import { ONLINE_USERS_REFRESH_KEYS, type TopicAccess } from './topics.ts';

/** What the hub needs from a connection; implemented by RealtimeConnection. */
export interface HubPeer {
  readonly vsn: Vsn;
  send(message: PhoenixMessage): void;
  sendRaw(frame: Buffer | string): void;
  /** Ends one channel from the server side: a system error, then phx_close. */
  closeSubscription(subscription: Subscription, message: string): void;
  /** Called after the hub closed some of this peer's channels because their session ended. */
  afterSessionsEnded(): void;
}

export interface Subscription {
  readonly peer: HubPeer;
  readonly topic: string;
  readonly joinRef: string;
  readonly access: TopicAccess;
  claims: JwtClaims;
  readonly broadcastSelf: boolean;
  readonly broadcastAck: boolean;
  readonly presenceEnabled: boolean;
  readonly presenceKey: string;
  presence?: { ref: string; meta: Record<string, unknown> };
  /** Presence requests of this subscription, applied one after the other (a track may wait on SQL). */
  presenceQueue?: Promise<void>;
  expiryTimer?: NodeJS.Timeout;
  /** Counts token refreshes, so a slow older one never overwrites a newer one. */
  refreshSerial?: number;
  /** Presence keys (member ids) this subscriber never sees: a block or report between them (online-users). */
  hiddenKeys?: Set<string>;
}

function withoutKeys(map: PresenceMap, hidden: ReadonlySet<string> | undefined): PresenceMap {
  if (!hidden || hidden.size === 0) return map;
  const out: PresenceMap = {};
  for (const [k, v] of Object.entries(map)) if (!hidden.has(k)) out[k] = v;
  return out;
}

type PresenceMap = Record<string, { metas: Record<string, unknown>[] }>;

/** A user broadcast to pass on: payload bytes as the client sent them (JSON or raw). */
export interface BroadcastOut {
  userEvent: string;
  encoding: 0 | 1;
  payload: Buffer;
}

function makePresenceRef(): string {
  return crypto.randomBytes(9).toString('base64url');
}

/** Presence keys whose change alone is a refresh, not news for the other members of the topic. */
function getRefreshOnlyKeys(access: TopicAccess): readonly string[] {
  return access.kind === 'online-users' ? ONLINE_USERS_REFRESH_KEYS : [];
}

function isSamePresence(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  refreshOnly: readonly string[],
): boolean {
  if (refreshOnly.length === 0) return isDeepStrictEqual(a, b);
  const strip = (m: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(m).filter(([k]) => !refreshOnly.includes(k)));
  return isDeepStrictEqual(strip(a), strip(b));
}

function toMeta(subscription: Subscription): Record<string, unknown> {
  const p = subscription.presence!;
  return { ...p.meta, phx_ref: p.ref };
}

/** How often a process tells the others it is alive, and after how long without word it counts as gone. */
const ALIVE_EVERY_MS = 5_000;
const GONE_AFTER_MS = 20_000;

/**
 * Presence tracked on another server process, by that process's bus origin: topic -> presence map. Kept
 * from the diffs it publishes; dropped (as leaves) when it says goodbye or stops saying it is alive.
 */
interface RemoteProcess {
  topics: Map<string, PresenceMap>;
  lastHeard: number;
}

function applyDiff(state: PresenceMap, joins: PresenceMap, leaves: PresenceMap): void {
  for (const [key, { metas }] of Object.entries(leaves)) {
    const entry = state[key];
    if (!entry) continue;
    const refs = new Set(metas.map((m) => m['phx_ref']));
    entry.metas = entry.metas.filter((m) => !refs.has(m['phx_ref']));
    if (entry.metas.length === 0) delete state[key];
  }
  for (const [key, { metas }] of Object.entries(joins)) {
    (state[key] ??= { metas: [] }).metas.push(...metas);
  }
}

export class RealtimeHub {
  private readonly topics = new Map<string, Set<Subscription>>();
  readonly peers = new Set<HubPeer>();
  private readonly remotes = new Map<string, RemoteProcess>();
  private readonly stopBus: (() => void)[] = [];
  private aliveTimer: NodeJS.Timeout | undefined;

  /** With a shared bus, broadcasts and presence reach the subscribers of every server process. */
  constructor(private readonly bus?: ClusterBus) {
    if (!bus?.shared) return;
    const heard = (origin: string) => {
      const r = this.remotes.get(origin) ?? { topics: new Map(), lastHeard: 0 };
      r.lastHeard = Date.now();
      this.remotes.set(origin, r);
      return r;
    };
    this.stopBus.push(
      bus.on('rt-broadcast', (m, origin) => {
        heard(origin);
        this.sendBroadcastHere(m.topic, {
          userEvent: m.event,
          encoding: m.encoding,
          payload: Buffer.from(m.payload, 'base64'),
        });
      }),
      bus.on('rt-presence', (m, origin) => {
        const r = heard(origin);
        const state = r.topics.get(m.topic) ?? {};
        applyDiff(state, m.joins, m.leaves);
        if (Object.keys(state).length === 0) r.topics.delete(m.topic);
        else r.topics.set(m.topic, state);
        this.sendPresenceDiffHere(m.topic, m.joins, m.leaves);
      }),
      bus.on('process-hello', (_m, origin) => {
        heard(origin);
        // The newcomer learns what is present here; it has no subscribers yet, so nobody here needs a diff.
        const topics: Record<string, PresenceMap> = {};
        for (const topic of this.topics.keys()) {
          const state = this.getLocalPresenceState(topic);
          if (Object.keys(state).length > 0) topics[topic] = state;
        }
        bus.publish('rt-presence-state', { topics, to: origin });
      }),
      bus.on('rt-presence-state', (m, origin) => {
        if (m.to !== bus.origin) return;
        const r = heard(origin);
        for (const [topic, state] of Object.entries(m.topics)) {
          const before = r.topics.get(topic) ?? {};
          r.topics.set(topic, state);
          this.sendPresenceDiffHere(topic, state, before);
        }
      }),
      bus.on('process-alive', (_m, origin) => void heard(origin)),
      bus.on('process-bye', (_m, origin) => this.dropRemote(origin)),
    );
    bus.publish('process-hello', {});
    this.aliveTimer = setInterval(() => {
      bus.publish('process-alive', {});
      const cutoff = Date.now() - GONE_AFTER_MS;
      for (const [origin, r] of this.remotes) if (r.lastHeard < cutoff) this.dropRemote(origin);
    }, ALIVE_EVERY_MS);
    this.aliveTimer.unref();
  }

  /** Tells the other processes this one leaves (its members' presence goes at once); stops listening. */
  close(): void {
    clearInterval(this.aliveTimer);
    for (const stop of this.stopBus.splice(0)) stop();
    if (this.bus?.shared) this.bus.publish('process-bye', {});
  }

  private dropRemote(origin: string): void {
    const r = this.remotes.get(origin);
    if (!r) return;
    this.remotes.delete(origin);
    for (const [topic, state] of r.topics) this.sendPresenceDiffHere(topic, {}, state);
  }

  getSubscribers(topic: string): ReadonlySet<Subscription> {
    return this.topics.get(topic) ?? new Set();
  }

  add(subscription: Subscription): void {
    let set = this.topics.get(subscription.topic);
    if (!set) this.topics.set(subscription.topic, (set = new Set()));
    set.add(subscription);
  }

  /** Removes a subscription; its presence, if any, leaves for everyone else. */
  remove(subscription: Subscription): void {
    clearTimeout(subscription.expiryTimer);
    const set = this.topics.get(subscription.topic);
    if (!set?.delete(subscription)) return;
    if (set.size === 0) this.topics.delete(subscription.topic);
    if (subscription.presence) {
      const left = toMeta(subscription);
      subscription.presence = undefined;
      this.sendPresenceDiff(subscription.topic, {}, { [subscription.presenceKey]: { metas: [left] } });
    }
  }

  /** Current presence of a topic (on every process) in the shape realtime-js expects in presence_state. */
  getPresenceState(topic: string): PresenceMap {
    const state = this.getLocalPresenceState(topic);
    for (const r of this.remotes.values()) {
      const remote = r.topics.get(topic);
      if (remote) applyDiff(state, remote, {});
    }
    return state;
  }

  /** presence_state as one subscriber may see it (without the members hidden from them). */
  getPresenceStateFor(subscription: Subscription): PresenceMap {
    return withoutKeys(this.getPresenceState(subscription.topic), subscription.hiddenKeys);
  }

  /**
   * Two members stop seeing each other (a block or a report): on online-users each drops out of the other's
   * presence at once and stays out. Returns their subscriptions on member channels, for the caller to check
   * again (a conversation, call or game of a hidden pair is no longer theirs).
   */
  hidePair(a: string, b: string): Subscription[] {
    const toCheck: Subscription[] = [];
    for (const set of this.topics.values()) {
      for (const s of set) {
        const me = s.claims.sub;
        const other = me === a ? b : me === b ? a : undefined;
        if (!other) continue;
        if (s.access.kind === 'member') toCheck.push(s);
        if (s.access.kind !== 'online-users') continue;
        s.hiddenKeys ??= new Set();
        if (s.hiddenKeys.has(other)) continue;
        s.hiddenKeys.add(other);
        const seen = this.getPresenceState(s.topic)[other];
        if (seen && s.presenceEnabled)
          s.peer.send({
            joinRef: s.joinRef,
            ref: null,
            topic: s.topic,
            event: 'presence_diff',
            payload: { joins: {}, leaves: { [other]: seen } },
          });
      }
    }
    return toCheck;
  }

  private getLocalPresenceState(topic: string): PresenceMap {
    const state: PresenceMap = {};
    for (const s of this.getSubscribers(topic)) {
      if (!s.presence) continue;
      (state[s.presenceKey] ??= { metas: [] }).metas.push(toMeta(s));
    }
    return state;
  }

  /**
   * Tracks (or replaces) the subscription's presence; everyone with presence on sees the diff. A re-track
   * that differs from the tracked state only in the topic's refresh-only keys (online-users: lastActivity)
   * is a refresh: it is kept for presence_state but not re-broadcast, so periodic refreshes cost nothing
   * per other member. Returns whether a diff was sent.
   */
  track(subscription: Subscription, meta: Record<string, unknown>): boolean {
    const current = subscription.presence;
    if (current && isSamePresence(current.meta, meta, getRefreshOnlyKeys(subscription.access))) {
      current.meta = meta;
      return false;
    }
    const leaves: PresenceMap = subscription.presence
      ? { [subscription.presenceKey]: { metas: [toMeta(subscription)] } }
      : {};
    subscription.presence = { ref: makePresenceRef(), meta };
    this.sendPresenceDiff(
      subscription.topic,
      { [subscription.presenceKey]: { metas: [toMeta(subscription)] } },
      leaves,
    );
    return true;
  }

  untrack(subscription: Subscription): void {
    if (!subscription.presence) return;
    const left = toMeta(subscription);
    subscription.presence = undefined;
    this.sendPresenceDiff(subscription.topic, {}, { [subscription.presenceKey]: { metas: [left] } });
  }

  /** A presence change of a subscription on this process: to its subscribers here and to the other processes. */
  private sendPresenceDiff(topic: string, joins: PresenceMap, leaves: PresenceMap): void {
    this.sendPresenceDiffHere(topic, joins, leaves);
    if (this.bus?.shared) this.bus.publish('rt-presence', { topic, joins, leaves });
  }

  private sendPresenceDiffHere(topic: string, joins: PresenceMap, leaves: PresenceMap): void {
    if (Object.keys(joins).length === 0 && Object.keys(leaves).length === 0) return;
    for (const s of this.getSubscribers(topic)) {
      if (!s.presenceEnabled) continue;
      const seenJoins = withoutKeys(joins, s.hiddenKeys);
      const seenLeaves = withoutKeys(leaves, s.hiddenKeys);
      if (Object.keys(seenJoins).length === 0 && Object.keys(seenLeaves).length === 0) continue;
      s.peer.send({
        joinRef: s.joinRef,
        ref: null,
        topic,
        event: 'presence_diff',
        payload: { joins: seenJoins, leaves: seenLeaves },
      });
    }
  }

  /**
   * Passes a user broadcast to the topic's subscribers (the sender too only when it asked for self), on
   * this process and, through the bus, on the others.
   */
  broadcast(topic: string, out: BroadcastOut, sender?: Subscription): void {
    this.sendBroadcastHere(topic, out, sender);
    if (this.bus?.shared)
      this.bus.publish('rt-broadcast', {
        topic,
        event: out.userEvent,
        encoding: out.encoding,
        payload: out.payload.toString('base64'),
      });
  }

  private sendBroadcastHere(topic: string, out: BroadcastOut, sender?: Subscription): void {
    let binary: Buffer | undefined | null = null; // null = not built yet
    let jsonPayload: unknown;
    let jsonParsed = false;
    for (const s of this.getSubscribers(topic)) {
      if (s === sender && !sender.broadcastSelf) continue;
      if (s.peer.vsn === '2.0.0') {
        if (binary === null) binary = encodeBinaryBroadcast(topic, out.userEvent, out.encoding, out.payload);
        if (binary) {
          s.peer.sendRaw(binary);
          continue;
        }
      }
      // JSON frames cannot carry raw bytes; such broadcasts reach only binary-capable (2.0.0) clients.
      if (out.encoding !== ENCODING_JSON) continue;
      if (!jsonParsed) {
        jsonPayload = JSON.parse(out.payload.toString('utf8'));
        jsonParsed = true;
      }
      s.peer.send({
        joinRef: s.joinRef,
        ref: null,
        topic,
        event: 'broadcast',
        payload: { type: 'broadcast', event: out.userEvent, payload: jsonPayload },
      });
    }
  }

  /** Session ends of the last minute, for joins and refreshes that were being checked meanwhile. */
  private recentEnds: { userId: string; sessionIds: string[] | 'all'; at: number }[] = [];

  /** True when the claims' session ended at or after `since` (a check started then is stale). */
  wasSessionEndedSince(claims: JwtClaims, since: number): boolean {
    return this.recentEnds.some(
      (e) =>
        e.at >= since &&
        e.userId === claims.sub &&
        (e.sessionIds === 'all' || e.sessionIds.includes(String(claims.session_id ?? ''))),
    );
  }

  /** Closes every channel joined with a token of the ended sessions (or of the user, for 'all'). */
  endSessions(userId: string, sessionIds: string[] | 'all'): void {
    const now = Date.now();
    this.recentEnds = this.recentEnds.filter((e) => e.at > now - 60_000);
    this.recentEnds.push({ userId, sessionIds, at: now });
    const touched = new Set<HubPeer>();
    for (const set of [...this.topics.values()]) {
      for (const s of [...set]) {
        if (s.claims.sub !== userId) continue;
        if (sessionIds !== 'all' && !sessionIds.includes(String(s.claims.session_id ?? ''))) continue;
        s.peer.closeSubscription(s, 'Session ended');
        touched.add(s.peer);
      }
    }
    for (const peer of touched) peer.afterSessionsEnded();
  }
}
