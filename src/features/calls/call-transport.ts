// One call interface, two transports (issue 18, DESIGN "Calls"): peer-to-peer WebRTC signalled over the
// private realtime channel call:<id>, or Stream's SDK when the instance is configured for it. The call screen
// only ever talks to this interface.
import type { ConnectionState, LinkStats } from '../../domain/calls.ts';

export interface TransportEvents {
  onState(state: ConnectionState): void;
  onRemoteStream(stream: MediaStream): void;
  /** The other side turned its camera on or off (or has none: an audio call). */
  onRemoteCamera(on: boolean): void;
  /** The other side hung up (faster than its row reaching us through sync). */
  onRemoteHangup(): void;
  /** The member's own preview, when the transport opened the camera itself (Stream). */
  onLocalStream?(stream: MediaStream): void;
}

export interface CallStats extends LinkStats {
  bytesReceived: number;
  bytesSent: number;
}

export interface CallTransport {
  /** Connects; the state goes calling -> connected -> joined (media flowing) or failed. */
  join(): Promise<void>;
  setMicrophone(on: boolean): Promise<void>;
  setCamera(on: boolean): Promise<void>;
  getStats(): Promise<CallStats>;
  /** Leaves the call, telling the other side; safe to call twice. */
  leave(): Promise<void>;
}
