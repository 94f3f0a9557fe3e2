// Phoenix channel frames as realtime-js speaks them: vsn 1.0.0 (JSON objects) and 2.0.0 (JSON arrays
// plus binary user-broadcast frames). Decoding never throws: a frame that does not fit is `undefined`.

export type Vsn = '1.0.0' | '2.0.0';

export interface PhoenixMessage {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

/** A user broadcast pushed by the client as a binary frame (vsn 2.0.0, kind 3). */
export interface BinaryBroadcastPush {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  /** The user's event name (e.g. 'cursor'). */
  userEvent: string;
  /** 1 = payload bytes are JSON, 0 = raw bytes. */
  encoding: 0 | 1;
  payload: Buffer;
}

export type DecodedFrame =
  { kind: 'message'; message: PhoenixMessage } | { kind: 'binary-broadcast'; push: BinaryBroadcastPush };

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
export const ENCODING_BINARY = 0;
export const ENCODING_JSON = 1;
const MAX_NAME_LENGTH = 255;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isRef(v: unknown): v is string | null {
  return v === null || v === undefined || (typeof v === 'string' && v.length <= MAX_NAME_LENGTH);
}

function isName(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_NAME_LENGTH;
}

/** Parses one text frame; undefined when it is not a well-formed Phoenix message. */
export function decodeTextFrame(text: string, vsn: Vsn): PhoenixMessage | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  let joinRef: unknown, ref: unknown, topic: unknown, event: unknown, payload: unknown;
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) return undefined;
    [joinRef, ref, topic, event, payload] = parsed as unknown[];
  } else {
    if (!isRecord(parsed)) return undefined;
    ({ join_ref: joinRef, ref, topic, event, payload } = parsed);
  }
  if (!isRef(joinRef) || !isRef(ref) || !isName(topic) || !isName(event)) return undefined;
  return {
    joinRef: joinRef ?? null,
    ref: ref ?? null,
    topic,
    event,
    payload: isRecord(payload) ? payload : {},
  };
}

/** Parses a binary user-broadcast push (kind 3); undefined for any other or truncated frame. */
export function decodeBinaryFrame(data: Buffer): BinaryBroadcastPush | undefined {
  const headerLength = 7;
  if (data.length < headerLength || data[0] !== KIND_USER_BROADCAST_PUSH) return undefined;
  const joinRefLength = data[1]!;
  const refLength = data[2]!;
  const topicLength = data[3]!;
  const eventLength = data[4]!;
  const metadataLength = data[5]!;
  const encoding = data[6]!;
  if (encoding !== ENCODING_BINARY && encoding !== ENCODING_JSON) return undefined;
  const payloadStart = headerLength + joinRefLength + refLength + topicLength + eventLength + metadataLength;
  if (data.length < payloadStart || topicLength === 0 || eventLength === 0) return undefined;
  // realtime-js writes these strings one char code per byte, so latin1 reads back exactly what it meant.
  let offset = headerLength;
  const take = (length: number) => {
    const s = data.toString('latin1', offset, offset + length);
    offset += length;
    return s;
  };
  const joinRef = take(joinRefLength);
  const ref = take(refLength);
  const topic = take(topicLength);
  const userEvent = take(eventLength);
  take(metadataLength); // client-chosen metadata is not passed on: the server alone says what meta means
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    userEvent,
    encoding,
    payload: data.subarray(payloadStart),
  };
}

/** Encodes a message for the connection's protocol version. */
export function encodeMessage(message: PhoenixMessage, vsn: Vsn): string {
  if (vsn === '2.0.0') {
    return JSON.stringify([message.joinRef, message.ref, message.topic, message.event, message.payload]);
  }
  return JSON.stringify({
    join_ref: message.joinRef,
    ref: message.ref,
    topic: message.topic,
    event: message.event,
    payload: message.payload,
  });
}

/**
 * Encodes a user broadcast as the binary frame (kind 4) realtime-js 2.0.0 decodes; undefined when a
 * name does not fit the one-byte lengths, so the caller falls back to a JSON frame.
 */
export function encodeBinaryBroadcast(
  topic: string,
  userEvent: string,
  encoding: 0 | 1,
  payload: Buffer,
): Buffer | undefined {
  const topicBytes = Buffer.from(topic, 'utf8');
  const eventBytes = Buffer.from(userEvent, 'utf8');
  if (topicBytes.length > MAX_NAME_LENGTH || eventBytes.length > MAX_NAME_LENGTH) return undefined;
  const header = Buffer.from([KIND_USER_BROADCAST, topicBytes.length, eventBytes.length, 0, encoding]);
  return Buffer.concat([header, topicBytes, eventBytes, payload]);
}

/** The reply to a push: `phx_reply` with ok or error and a response object. */
export function makeReply(
  request: Pick<PhoenixMessage, 'joinRef' | 'ref' | 'topic'>,
  status: 'ok' | 'error',
  response: Record<string, unknown> = {},
): PhoenixMessage {
  return {
    joinRef: request.joinRef,
    ref: request.ref,
    topic: request.topic,
    event: 'phx_reply',
    payload: { status, response },
  };
}
