// The in-memory state of one realtime process: who joined which topic, presence per topic, and fan-out.
import crypto from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { JwtClaims } from '../auth/keys.ts';
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

export class RealtimeHub {
  private readonly topics = new Map<string, Set<Subscription>>();
  readonly peers = new Set<HubPeer>();

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

  /** Current presence of a topic in the shape realtime-js expects in presence_state. */
  getPresenceState(topic: string): PresenceMap {
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

  private sendPresenceDiff(topic: string, joins: PresenceMap, leaves: PresenceMap): void {
    for (const s of this.getSubscribers(topic)) {
      if (!s.presenceEnabled) continue;
      s.peer.send({
        joinRef: s.joinRef,
        ref: null,
        topic,
        event: 'presence_diff',
        payload: { joins, leaves },
      });
    }
  }

  /** Passes a user broadcast to the topic's subscribers (the sender too only when it asked for self). */
  broadcast(topic: string, out: BroadcastOut, sender?: Subscription): void {
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
