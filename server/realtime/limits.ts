// Limits that keep one connection from hurting the others; the README explains each.
export const REALTIME_LIMITS = {
  /** Largest frame the WebSocket layer reads at all; anything bigger closes the connection (1009). */
  maxWirePayloadBytes: 1024 * 1024,
  /** Largest Phoenix message this service accepts; a bigger one closes the connection (1009). */
  maxMessageBytes: 64 * 1024,
  /** Frames per second a connection may send, with a burst of the same size. */
  messagesPerSecond: 100,
  messageBurst: 100,
  /** HTTP broadcasts per second per client address (the send-before-join fallback and httpSend). */
  httpBroadcastsPerSecond: 20,
  httpBroadcastBurst: 50,
  /** Frames refused by the rate limit (net of accepted ones) before the connection is closed (1008). */
  maxRefusedFrames: 100,
  /** Channels one connection may have joined (or be joining) at once. */
  maxChannelsPerConnection: 100,
  /** Serialised size of one presence payload. */
  maxPresenceBytes: 4 * 1024,
  /** Length of a client-chosen presence key. */
  maxPresenceKeyLength: 128,
  /** Bytes waiting to go out to a slow reader before it is dropped (1013), so it cannot hold memory. */
  maxBufferedBytes: 4 * 1024 * 1024,
  /** A connection that sends nothing (not even a heartbeat) for this long is closed. */
  idleTimeoutMs: 75_000,
  /** Longest access token accepted in a join or refresh. */
  maxTokenLength: 8 * 1024,
} as const;
