// Calls, pure (issue 18): the spec's constants and states, the card a call leaves in the thread (one card per
// call, from its latest step message), and the connection quality a call records.

export type CallType = 'video' | 'audio';
export type CallStatus = 'ringing' | 'active' | 'ended' | 'declined' | 'missed';
/** The spec's local connection states (§4). */
export type ConnectionState = 'disconnected' | 'connected' | 'calling' | 'joined' | 'failed';
/** The spec's end reasons, plus a ring nobody answered and a connection that failed. */
export type EndReason = 'remote_ended' | 'declined' | 'user_ended' | 'timeout' | 'failed';

/** Joining must finish within this (spec §5, §9). */
export const CALL_JOIN_TIMEOUT_MS = 30_000;
/** A call rings this long; the incoming call's notification closes after it too (spec §9). */
export const CALL_RING_MS = 30_000;
/** While a call is up each side writes its connection quality this often (the server ends abandoned calls). */
export const CALL_HEARTBEAT_MS = 10_000;

export const CALL_TEXT = {
  premiumTitle: 'Premium Required',
  premiumBody: 'Both users must have a premium subscription to start a video call.',
  createFailed: 'Failed to create call. Please try again.',
  clientFailed: 'Failed to initialize video client. Please try again.',
  ended: 'Call Ended',
  error: 'Call Error',
  notAuthenticated: 'User not authenticated',
  badToken: 'Invalid token data received from the edge function.',
  joinTimeout: 'Call join timeout - took too long to connect',
  joinLeft: 'Call failed to join - state changed to left or idle',
} as const;

export const CALL_MESSAGE_TYPES = [
  'video_call_ring',
  'video_call_answer',
  'video_call_decline',
  'video_call_end',
  'video_call_timeout',
] as const;
export type CallMessageType = (typeof CALL_MESSAGE_TYPES)[number];

export function isCallMessageType(type: string): type is CallMessageType {
  return (CALL_MESSAGE_TYPES as readonly string[]).includes(type);
}

export interface CallMessageMeta {
  callId?: string;
  callType?: CallType;
  callerId?: string;
  callerName?: string;
  durationSeconds?: number;
}

/** The metadata of a call step message (JSON text from the replica), or an empty object. */
export function readCallMeta(metadata: string | null | undefined): CallMessageMeta {
  if (!metadata) return {};
  try {
    const m = JSON.parse(metadata) as Record<string, unknown>;
    if (typeof m !== 'object' || m === null) return {};
    return {
      ...(typeof m['callId'] === 'string' ? { callId: m['callId'] } : {}),
      ...(m['callType'] === 'audio' || m['callType'] === 'video' ? { callType: m['callType'] } : {}),
      ...(typeof m['callerId'] === 'string' ? { callerId: m['callerId'] } : {}),
      ...(typeof m['callerName'] === 'string' ? { callerName: m['callerName'] } : {}),
      ...(typeof m['durationSeconds'] === 'number' ? { durationSeconds: m['durationSeconds'] } : {}),
    };
  } catch {
    return {};
  }
}

/** "45 s", "4 min", "1 h 5 min". */
export function formatCallDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  return min % 60 === 0 ? `${h} h` : `${h} h ${min % 60} min`;
}

/** "04:05" for a running call's timer. */
export function formatCallClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const mm = String(Math.floor(s / 60)).padStart(2, '0');
  return `${mm}:${String(s % 60).padStart(2, '0')}`;
}

export interface CallCard {
  tone: 'missed' | 'done' | 'live';
  title: string;
}

/** What a call's card says, from its latest step, seen by `me`. */
export function describeCallCard(type: CallMessageType, meta: CallMessageMeta, me: string): CallCard {
  const kind = meta.callType === 'audio' ? 'audio call' : 'video call';
  const Kind = kind.charAt(0).toUpperCase() + kind.slice(1);
  const iCalled = meta.callerId === me;
  switch (type) {
    case 'video_call_ring':
      return { tone: 'live', title: iCalled ? `Calling... (${kind})` : `Incoming ${kind}` };
    case 'video_call_answer':
      return { tone: 'live', title: `${Kind} in progress` };
    case 'video_call_decline':
      return { tone: 'missed', title: iCalled ? `${Kind} declined` : `Declined ${kind}` };
    case 'video_call_timeout':
      return { tone: 'missed', title: iCalled ? `${Kind}, no answer` : `Missed ${kind}` };
    case 'video_call_end': {
      const d = meta.durationSeconds ?? 0;
      if (d > 0) return { tone: 'done', title: `${Kind}, ${formatCallDuration(d)}` };
      return { tone: 'missed', title: iCalled ? `${Kind}, cancelled` : `Missed ${kind}` };
    }
  }
}

/**
 * The ids of call step messages the thread hides: every step but the latest of its call, so a call shows as
 * one card that changes (ringing, in progress, then "Video call, 4 min").
 */
export function findSupersededCallSteps(
  messages: readonly { id: string; type: string; metadata: string | null }[],
): Set<string> {
  const latest = new Map<string, string>();
  const hidden = new Set<string>();
  for (const m of messages) {
    if (!isCallMessageType(m.type)) continue;
    const callId = readCallMeta(m.metadata).callId;
    if (!callId) continue;
    const before = latest.get(callId);
    if (before) hidden.add(before);
    latest.set(callId, m.id);
  }
  return hidden;
}

export interface LinkStats {
  /** Seconds, from the selected candidate pair. */
  roundTripTime?: number;
  packetsLost?: number;
  packetsReceived?: number;
}

/** excellent / good / fair / poor from round-trip time and loss (what the call row records). */
export function rateConnection(stats: LinkStats): 'excellent' | 'good' | 'fair' | 'poor' | 'unknown' {
  const rtt = stats.roundTripTime;
  const received = stats.packetsReceived ?? 0;
  const lost = stats.packetsLost ?? 0;
  if (rtt === undefined && received === 0) return 'unknown';
  const loss = received + lost > 0 ? lost / (received + lost) : 0;
  const ms = (rtt ?? 0) * 1000;
  if (loss > 0.1 || ms > 600) return 'poor';
  if (loss > 0.03 || ms > 300) return 'fair';
  if (loss > 0.01 || ms > 150) return 'good';
  return 'excellent';
}

/** The sentence the member sees when a call ends, by reason. */
export function describeEnd(reason: EndReason, otherName: string): string {
  switch (reason) {
    case 'remote_ended':
      return `${otherName} ended the call.`;
    case 'declined':
      return `${otherName} declined the call.`;
    case 'timeout':
      return `${otherName} did not answer.`;
    case 'failed':
      return 'The connection was lost.';
    case 'user_ended':
      return 'You ended the call.';
  }
}
