// One WebSocket speaking the Phoenix channel protocol: joins, leaves, heartbeats, presence, broadcast, token refresh.
import crypto from 'node:crypto';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import type { JwtClaims } from '../auth/keys.ts';
import type { AppContext } from '../context.ts';
import { findMemberId } from '../caller/caller.ts';
import {
  authorizeJoin,
  findHiddenMemberIds,
  findOnlineVisibility,
  ONLINE_STATUS_HIDDEN,
} from './authorize-join.ts';
import { REALTIME_LIMITS } from './limits.ts';
import {
  decodeBinaryFrame,
  decodeTextFrame,
  encodeMessage,
  ENCODING_JSON,
  makeReply,
  type PhoenixMessage,
  type Vsn,
} from './protocol.ts';
import { RateLimiter } from './rate-limiter.ts';
import type { BroadcastOut, HubPeer, RealtimeHub, Subscription } from './realtime-hub.ts';
import { findTopicAccess } from './topics.ts';

const joinPayloadSchema = z.object({
  config: z
    .object({
      broadcast: z.object({ self: z.boolean().optional(), ack: z.boolean().optional() }).optional(),
      presence: z
        .object({
          key: z.string().max(REALTIME_LIMITS.maxPresenceKeyLength).optional(),
          enabled: z.boolean().optional(),
        })
        .optional(),
      private: z.boolean().optional(),
      postgres_changes: z.array(z.unknown()).max(100).optional(),
    })
    .optional(),
  access_token: z.string().min(1).max(REALTIME_LIMITS.maxTokenLength).optional(),
});

const accessTokenPayloadSchema = z.object({
  access_token: z.string().min(1).max(REALTIME_LIMITS.maxTokenLength),
});

const broadcastPayloadSchema = z.object({
  type: z.literal('broadcast').optional(),
  event: z.string().min(1).max(255),
  payload: z.unknown().optional(),
});

const presencePayloadSchema = z.discriminatedUnion('event', [
  z.object({
    type: z.literal('presence').optional(),
    event: z.literal('track'),
    payload: z.record(z.string(), z.unknown()),
  }),
  z.object({ type: z.literal('presence').optional(), event: z.literal('untrack') }),
]);

/** WebSocket close codes this service uses. */
export const CLOSE_CODES = {
  policyViolation: 1008,
  messageTooBig: 1009,
  tryAgainLater: 1013,
  sessionEnded: 4001,
  idle: 4002,
} as const;

export class RealtimeConnection implements HubPeer {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly pendingJoins = new Map<string, string>();
  private readonly limiter = new RateLimiter(REALTIME_LIMITS.messagesPerSecond, REALTIME_LIMITS.messageBurst);
  private refusedFrames = 0;
  private closed = false;
  lastSeen = Date.now();

  constructor(
    private readonly socket: WebSocket,
    private readonly hub: RealtimeHub,
    private readonly ctx: AppContext,
    /** Claims of the apikey the socket connected with (anon or service_role). */
    private readonly apiClaims: JwtClaims,
    readonly vsn: Vsn,
  ) {
    hub.peers.add(this);
    socket.on('message', (data, isBinary) => this.onFrame(data, isBinary));
    socket.on('close', () => this.dispose());
  }

  private onFrame(data: unknown, isBinary: boolean): void {
    if (this.closed) return;
    this.lastSeen = Date.now();
    const buffer = Buffer.isBuffer(data)
      ? data
      : Array.isArray(data)
        ? Buffer.concat(data as Buffer[])
        : Buffer.from(data as ArrayBuffer);
    if (buffer.length > REALTIME_LIMITS.maxMessageBytes) {
      this.close(CLOSE_CODES.messageTooBig, 'message too big');
      return;
    }
    if (!this.limiter.tryTake()) {
      if (++this.refusedFrames > REALTIME_LIMITS.maxRefusedFrames)
        this.close(CLOSE_CODES.policyViolation, 'rate limit exceeded');
      return;
    }
    this.refusedFrames = Math.max(0, this.refusedFrames - 1);
    try {
      if (isBinary) {
        const push = decodeBinaryFrame(buffer);
        if (!push) return; // not a frame kind clients send: ignored
        this.onBroadcast(
          { joinRef: push.joinRef, ref: push.ref, topic: push.topic },
          { userEvent: push.userEvent, encoding: push.encoding, payload: push.payload },
        );
        return;
      }
      const message = decodeTextFrame(buffer.toString('utf8'), this.vsn);
      if (!message) return; // malformed: nothing to answer to
      this.onMessage(message);
    } catch (e) {
      // A bug here must cost this one frame, never the process.
      this.ctx.log.warn({ err: e }, 'realtime: frame handling failed');
    }
  }

  private onMessage(message: PhoenixMessage): void {
    if (message.topic === 'phoenix') {
      if (message.event === 'heartbeat') this.send(makeReply(message, 'ok'));
      else this.send(makeReply(message, 'error', { reason: 'unknown event' }));
      return;
    }
    if (message.event === 'phx_join') {
      void this.onJoin(message).catch((e: unknown) => {
        this.ctx.log.warn({ err: e }, 'realtime: join failed');
        this.send(makeReply(message, 'error', { reason: 'join failed' }));
      });
      return;
    }
    if (message.event === 'phx_leave') {
      this.pendingJoins.delete(message.topic);
      const subscription = this.subscriptions.get(message.topic);
      if (subscription) this.removeSubscription(subscription);
      this.send(makeReply(message, 'ok'));
      return;
    }
    const subscription = this.findJoined(message);
    if (!subscription) {
      this.send(makeReply(message, 'error', { reason: 'unmatched topic' }));
      return;
    }
    switch (message.event) {
      case 'broadcast': {
        const parsed = broadcastPayloadSchema.safeParse(message.payload);
        if (!parsed.success) {
          this.send(makeReply(message, 'error', { reason: 'a broadcast needs an event name' }));
          return;
        }
        const payload = Buffer.from(JSON.stringify(parsed.data.payload ?? {}), 'utf8');
        this.onBroadcast(message, { userEvent: parsed.data.event, encoding: ENCODING_JSON, payload });
        return;
      }
      case 'presence':
        // In order per channel: an untrack sent after a track must not overtake its database check.
        subscription.presenceQueue = (subscription.presenceQueue ?? Promise.resolve())
          .then(() => this.onPresence(subscription, message))
          .catch((e: unknown) => {
            this.ctx.log.warn({ err: e }, 'realtime: presence failed');
            this.send(makeReply(message, 'error', { reason: 'presence failed' }));
          });
        return;
      case 'access_token':
        void this.onAccessToken(subscription, message).catch((e: unknown) => {
          this.ctx.log.warn({ err: e }, 'realtime: token refresh failed');
          this.closeSubscription(subscription, 'Could not verify the access token');
        });
        return;
      default:
        this.send(makeReply(message, 'error', { reason: 'unknown event' }));
    }
  }

  /** The live subscription a message is for; a stale join_ref (an earlier join of the topic) does not match. */
  private findJoined(message: Pick<PhoenixMessage, 'topic' | 'joinRef'>): Subscription | undefined {
    const subscription = this.subscriptions.get(message.topic);
    if (!subscription) return undefined;
    if (message.joinRef !== null && message.joinRef !== subscription.joinRef) return undefined;
    return subscription;
  }

  private async onJoin(message: PhoenixMessage): Promise<void> {
    const refuse = (reason: string) => this.send(makeReply(message, 'error', { reason }));
    const access = findTopicAccess(message.topic);
    if (!access)
      return refuse('Unknown channel. See server/realtime/README.md for the channels this server has.');
    const parsed = joinPayloadSchema.safeParse(message.payload);
    if (!parsed.success) return refuse('Invalid join payload');
    const { config = {}, access_token: accessToken } = parsed.data;
    if (config.postgres_changes && config.postgres_changes.length > 0) {
      return refuse('postgres_changes is not served here: data reaches clients through the sync stream');
    }
    const isRejoin = this.subscriptions.has(message.topic) || this.pendingJoins.has(message.topic);
    if (
      !isRejoin &&
      this.subscriptions.size + this.pendingJoins.size >= REALTIME_LIMITS.maxChannelsPerConnection
    ) {
      return refuse('Too many channels on this connection');
    }
    const joinRef = message.joinRef ?? message.ref ?? crypto.randomUUID();
    this.pendingJoins.set(message.topic, joinRef);
    const stillWanted = () => !this.closed && this.pendingJoins.get(message.topic) === joinRef;

    const checkStartedAt = Date.now();
    const claims = accessToken ? await this.findVerifiedClaims(accessToken) : this.apiClaims;
    if (!stillWanted()) return;
    if (!claims) {
      this.pendingJoins.delete(message.topic);
      return refuse('Invalid or expired access token');
    }
    const decision = await authorizeJoin(this.ctx.db, access, claims, (e) =>
      this.ctx.log.debug({ err: e, topic: message.topic }, 'realtime: membership check failed'),
    );
    // On online-users a member never sees someone they blocked or reported, or who blocked or reported them.
    const joiner = findMemberId(claims);
    const hiddenKeys =
      decision.ok && access.kind === 'online-users' && joiner
        ? await findHiddenMemberIds(this.ctx.db, joiner).catch(() => undefined)
        : undefined;
    if (!stillWanted()) return;
    this.pendingJoins.delete(message.topic);
    if (!decision.ok) return refuse(decision.reason);
    if (this.hub.wasSessionEndedSince(claims, checkStartedAt)) return refuse('Session ended');
    // Without the list of hidden members nobody could be filtered: fail closed, the client joins again.
    if (access.kind === 'online-users' && joiner && !hiddenKeys)
      return refuse('Could not join online-users, please try again');

    const previous = this.subscriptions.get(message.topic);
    if (previous) this.removeSubscription(previous);
    const memberId = findMemberId(claims);
    const requestedKey = config.presence?.key ?? '';
    // On member-only channels the presence key is who you are, so nobody can appear as someone else.
    const presenceKey =
      access.kind !== 'public' && memberId
        ? memberId
        : requestedKey !== ''
          ? requestedKey
          : crypto.randomUUID();
    const subscription: Subscription = {
      peer: this,
      topic: message.topic,
      joinRef,
      access,
      claims,
      broadcastSelf: config.broadcast?.self === true,
      broadcastAck: config.broadcast?.ack === true,
      presenceEnabled: config.presence?.enabled === true,
      presenceKey,
      ...(hiddenKeys ? { hiddenKeys } : {}),
    };
    this.subscriptions.set(message.topic, subscription);
    this.hub.add(subscription);
    this.scheduleExpiry(subscription);
    this.send(makeReply({ ...message, joinRef }, 'ok', { postgres_changes: [] }));
    if (subscription.presenceEnabled) {
      this.send({
        joinRef,
        ref: null,
        topic: message.topic,
        event: 'presence_state',
        payload: this.hub.getPresenceStateFor(subscription),
      });
    }
  }

  private onBroadcast(request: Pick<PhoenixMessage, 'joinRef' | 'ref' | 'topic'>, out: BroadcastOut): void {
    const subscription = this.findJoined(request);
    if (!subscription) {
      this.send(makeReply(request, 'error', { reason: 'unmatched topic' }));
      return;
    }
    if (out.encoding === ENCODING_JSON) {
      try {
        JSON.parse(out.payload.toString('utf8'));
      } catch {
        this.send(makeReply(request, 'error', { reason: 'the broadcast payload is not valid JSON' }));
        return;
      }
    }
    this.hub.broadcast(subscription.topic, out, subscription);
    if (subscription.broadcastAck && request.ref !== null) this.send(makeReply(request, 'ok'));
  }

  private async onPresence(subscription: Subscription, message: PhoenixMessage): Promise<void> {
    const parsed = presencePayloadSchema.safeParse(message.payload);
    if (!parsed.success) {
      this.send(
        makeReply(message, 'error', {
          reason: 'presence needs event track (with a payload object) or untrack',
        }),
      );
      return;
    }
    if (parsed.data.event === 'untrack') {
      this.hub.untrack(subscription);
      this.send(makeReply(message, 'ok'));
      return;
    }
    const meta = parsed.data.payload;
    if (Buffer.byteLength(JSON.stringify(meta), 'utf8') > REALTIME_LIMITS.maxPresenceBytes) {
      this.send(makeReply(message, 'error', { reason: 'presence payload too large' }));
      return;
    }
    const memberId = findMemberId(subscription.claims);
    const claimedId = meta['userId'] ?? meta['user_id'];
    if (
      subscription.access.kind !== 'public' &&
      memberId &&
      claimedId !== undefined &&
      claimedId !== memberId
    ) {
      this.send(makeReply(message, 'error', { reason: 'presence may only describe yourself' }));
      return;
    }
    // A member who hides their online status is never shown on online-users, whatever their client does;
    // every track (the app refreshes every 10 s) re-reads the setting, and a refused one drops the old entry.
    if (subscription.access.kind === 'online-users' && memberId) {
      const visibility = await findOnlineVisibility(this.ctx.db, subscription.claims, (e) =>
        this.ctx.log.warn({ err: e }, 'realtime: online status check failed'),
      );
      if (this.subscriptions.get(subscription.topic) !== subscription) return; // left meanwhile
      if (visibility === 'hidden') {
        this.hub.untrack(subscription);
        this.send(makeReply(message, 'error', { reason: ONLINE_STATUS_HIDDEN }));
        return;
      }
      if (visibility === 'unknown') {
        // A database hiccup must not flap everyone offline: an entry checked before stays as it is,
        // nobody new is shown, and the next refresh checks again.
        this.send(makeReply(message, 'error', { reason: 'Could not check your online status setting' }));
        return;
      }
    }
    this.hub.track(subscription, meta);
    this.send(makeReply(message, 'ok'));
  }

  private async onAccessToken(subscription: Subscription, message: PhoenixMessage): Promise<void> {
    const serial = (subscription.refreshSerial ?? 0) + 1;
    subscription.refreshSerial = serial;
    const isCurrent = () =>
      this.subscriptions.get(subscription.topic) === subscription && subscription.refreshSerial === serial;
    const checkStartedAt = Date.now();
    const parsed = accessTokenPayloadSchema.safeParse(message.payload);
    const claims = parsed.success ? await this.findVerifiedClaims(parsed.data.access_token) : undefined;
    if (!isCurrent()) return;
    if (!claims) return this.closeSubscription(subscription, 'Invalid or expired access token');
    const decision = await authorizeJoin(this.ctx.db, subscription.access, claims);
    if (!isCurrent()) return;
    if (!decision.ok) return this.closeSubscription(subscription, decision.reason);
    if (this.hub.wasSessionEndedSince(claims, checkStartedAt))
      return this.closeSubscription(subscription, 'Session ended');
    // Presence on these channels is keyed by the member: a refresh cannot turn it into someone else.
    if (subscription.access.kind !== 'public' && findMemberId(claims) !== findMemberId(subscription.claims)) {
      return this.closeSubscription(subscription, 'The access token belongs to someone else');
    }
    subscription.claims = claims;
    this.scheduleExpiry(subscription);
  }

  private async findVerifiedClaims(token: string): Promise<JwtClaims | undefined> {
    try {
      return await this.ctx.verifyToken(token);
    } catch {
      return undefined;
    }
  }

  /** Closes the channel when its token expires, unless a refresh arrives first. */
  private scheduleExpiry(subscription: Subscription): void {
    clearTimeout(subscription.expiryTimer);
    const exp = subscription.claims.exp;
    if (typeof exp !== 'number') return;
    // Timers cap at about 24.8 days (API keys live for years), so a timer that fires early re-arms.
    const delay = Math.min(Math.max(exp * 1000 - Date.now(), 0), 2 ** 31 - 1);
    subscription.expiryTimer = setTimeout(() => {
      if (this.subscriptions.get(subscription.topic) !== subscription) return;
      if (Date.now() < exp * 1000) this.scheduleExpiry(subscription);
      else this.closeSubscription(subscription, 'Token has expired');
    }, delay);
    subscription.expiryTimer.unref();
  }

  closeSubscription(subscription: Subscription, message: string): void {
    if (this.subscriptions.get(subscription.topic) !== subscription) return;
    this.send({
      joinRef: subscription.joinRef,
      ref: null,
      topic: subscription.topic,
      event: 'system',
      payload: { status: 'error', extension: 'system', message, channel: subscription.access.subtopic },
    });
    this.send({
      joinRef: subscription.joinRef,
      ref: subscription.joinRef,
      topic: subscription.topic,
      event: 'phx_close',
      payload: {},
    });
    this.removeSubscription(subscription);
  }

  afterSessionsEnded(): void {
    if (this.subscriptions.size === 0) this.close(CLOSE_CODES.sessionEnded, 'session ended');
  }

  private removeSubscription(subscription: Subscription): void {
    if (this.subscriptions.get(subscription.topic) === subscription)
      this.subscriptions.delete(subscription.topic);
    this.hub.remove(subscription);
  }

  send(message: PhoenixMessage): void {
    this.sendRaw(encodeMessage(message, this.vsn));
  }

  sendRaw(frame: Buffer | string): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > REALTIME_LIMITS.maxBufferedBytes) {
      this.close(CLOSE_CODES.tryAgainLater, 'reading too slowly');
      return;
    }
    this.socket.send(frame);
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.dispose();
    this.socket.close(code, reason);
    // A peer that never answers the close handshake must not keep the socket.
    setTimeout(() => this.socket.terminate(), 2000).unref();
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.pendingJoins.clear();
    for (const subscription of this.subscriptions.values()) this.hub.remove(subscription);
    this.subscriptions.clear();
    this.hub.peers.delete(this);
  }
}
