// Peer-to-peer WebRTC (issue 18): media flows directly between the two browsers (or through the operator's
// TURN server), signalled over the private realtime channel call:<id>, which only the call's two members may
// join (server/realtime/topics.ts, checked in SQL). The caller offers; the recipient says "ready" until the
// offer comes (broadcasts are not replayed, so a late joiner asks again); ICE candidates trickle both ways.
import type { RealtimeChannel } from '@supabase/supabase-js';
import { getSupabase } from '../../data/supabase-client.ts';
import type { CallStats, CallTransport, TransportEvents } from './call-transport.ts';
import type { IceServer } from './calls-api.ts';

type Signal =
  | { kind: 'ready' }
  | { kind: 'offer'; sdp: string }
  | { kind: 'answer'; sdp: string }
  | { kind: 'ice'; candidate: RTCIceCandidateInit }
  | { kind: 'camera'; on: boolean }
  | { kind: 'hangup' };

const SIGNAL_EVENT = 'signal';
const READY_REPEAT_MS = 1000;
const SUBSCRIBE_TIMEOUT_MS = 15_000;

function isSignal(v: unknown): v is Signal & { from: string } {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  if (typeof s['from'] !== 'string') return false;
  switch (s['kind']) {
    case 'ready':
    case 'hangup':
      return true;
    case 'offer':
    case 'answer':
      return typeof s['sdp'] === 'string' && s['sdp'].length < 60_000;
    case 'ice':
      return typeof s['candidate'] === 'object' && s['candidate'] !== null;
    case 'camera':
      return typeof s['on'] === 'boolean';
    default:
      return false;
  }
}

export class WebRtcTransport implements CallTransport {
  private channel: RealtimeChannel | undefined;
  private readonly pc: RTCPeerConnection;
  private readonly pendingIce: RTCIceCandidateInit[] = [];
  private readyTimer: ReturnType<typeof setInterval> | undefined;
  private offered = false;
  private left = false;

  constructor(
    private readonly options: {
      callId: string;
      me: string;
      role: 'caller' | 'recipient';
      iceServers: IceServer[];
      localStream: MediaStream;
    },
    private readonly events: TransportEvents,
  ) {
    this.pc = new RTCPeerConnection({ iceServers: options.iceServers });
    for (const track of options.localStream.getTracks()) this.pc.addTrack(track, options.localStream);
    // An audio call still receives: a transceiver per kind we do not send keeps the offer symmetric.
    if (options.localStream.getVideoTracks().length === 0)
      this.pc.addTransceiver('video', { direction: 'recvonly' });
    this.pc.ontrack = (e) => {
      this.events.onRemoteStream(e.streams[0] ?? new MediaStream([e.track]));
    };
    this.pc.onicecandidate = (e) => {
      if (e.candidate) this.send({ kind: 'ice', candidate: e.candidate.toJSON() });
    };
    this.pc.onconnectionstatechange = () => {
      const s = this.pc.connectionState;
      if (s === 'connected') {
        this.events.onState('joined');
        this.send({ kind: 'camera', on: this.isCameraOn() });
      } else if (s === 'failed') this.events.onState('failed');
      else if (s === 'disconnected') this.events.onState('disconnected');
    };
  }

  async join(): Promise<void> {
    const sb = await getSupabase();
    const channel = sb.channel(`call:${this.options.callId}`, {
      config: { private: true, broadcast: { self: false } },
    });
    this.channel = channel;
    channel.on('broadcast', { event: SIGNAL_EVENT }, ({ payload }: { payload?: unknown }) => {
      if (isSignal(payload) && payload.from !== this.options.me) void this.onSignal(payload);
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('The call could not reach the server.')),
        SUBSCRIBE_TIMEOUT_MS,
      );
      channel.subscribe((status) => {
        if (status === 'SUBSCRIBED') {
          clearTimeout(timer);
          resolve();
        } else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') {
          clearTimeout(timer);
          reject(new Error('The call could not reach the server.'));
        }
      });
    });
    if (this.left) return;
    this.events.onState(this.options.role === 'caller' ? 'calling' : 'connected');
    if (this.options.role === 'recipient') {
      this.send({ kind: 'ready' });
      this.readyTimer = setInterval(() => {
        if (this.pc.remoteDescription) clearInterval(this.readyTimer);
        else this.send({ kind: 'ready' });
      }, READY_REPEAT_MS);
    }
  }

  private send(signal: Signal): void {
    if (!this.channel || this.left) return;
    void this.channel.send({
      type: 'broadcast',
      event: SIGNAL_EVENT,
      payload: { ...signal, from: this.options.me },
    });
  }

  private isCameraOn(): boolean {
    return this.options.localStream.getVideoTracks().some((t) => t.enabled && t.readyState === 'live');
  }

  private async onSignal(signal: Signal): Promise<void> {
    if (this.left) return;
    try {
      switch (signal.kind) {
        case 'ready':
          if (this.options.role !== 'caller') return;
          if (!this.offered) {
            this.offered = true;
            this.events.onState('connected');
            await this.pc.setLocalDescription(await this.pc.createOffer());
          }
          // A "ready" after the offer means it was lost: send it again until the answer arrives.
          if (!this.pc.remoteDescription && this.pc.localDescription)
            this.send({ kind: 'offer', sdp: this.pc.localDescription.sdp });
          return;
        case 'offer':
          if (this.options.role !== 'recipient') return;
          if (!this.pc.remoteDescription) {
            await this.pc.setRemoteDescription({ type: 'offer', sdp: signal.sdp });
            await this.flushIce();
            await this.pc.setLocalDescription(await this.pc.createAnswer());
          }
          if (this.pc.localDescription) this.send({ kind: 'answer', sdp: this.pc.localDescription.sdp });
          return;
        case 'answer':
          if (this.options.role !== 'caller' || this.pc.remoteDescription) return;
          await this.pc.setRemoteDescription({ type: 'answer', sdp: signal.sdp });
          await this.flushIce();
          return;
        case 'ice':
          if (this.pc.remoteDescription) await this.pc.addIceCandidate(signal.candidate);
          else this.pendingIce.push(signal.candidate);
          return;
        case 'camera':
          this.events.onRemoteCamera(signal.on);
          return;
        case 'hangup':
          this.events.onRemoteHangup();
          return;
      }
    } catch (e) {
      console.warn('call signal failed', signal.kind, e);
    }
  }

  private async flushIce(): Promise<void> {
    for (const c of this.pendingIce.splice(0)) await this.pc.addIceCandidate(c).catch(() => undefined);
  }

  async setMicrophone(on: boolean): Promise<void> {
    for (const t of this.options.localStream.getAudioTracks()) t.enabled = on;
  }

  async setCamera(on: boolean): Promise<void> {
    for (const t of this.options.localStream.getVideoTracks()) t.enabled = on;
    this.send({ kind: 'camera', on: on && this.isCameraOn() });
  }

  async getStats(): Promise<CallStats> {
    const stats: CallStats = { bytesReceived: 0, bytesSent: 0, packetsLost: 0, packetsReceived: 0 };
    const report = await this.pc.getStats();
    report.forEach((r: Record<string, unknown>) => {
      if (r['type'] === 'inbound-rtp') {
        stats.bytesReceived += Number(r['bytesReceived'] ?? 0);
        stats.packetsLost = (stats.packetsLost ?? 0) + Number(r['packetsLost'] ?? 0);
        stats.packetsReceived = (stats.packetsReceived ?? 0) + Number(r['packetsReceived'] ?? 0);
      } else if (r['type'] === 'outbound-rtp') {
        stats.bytesSent += Number(r['bytesSent'] ?? 0);
      } else if (r['type'] === 'candidate-pair' && r['state'] === 'succeeded' && r['nominated']) {
        if (typeof r['currentRoundTripTime'] === 'number') stats.roundTripTime = r['currentRoundTripTime'];
      }
    });
    return stats;
  }

  async leave(): Promise<void> {
    if (this.left) return;
    this.send({ kind: 'hangup' });
    this.left = true;
    clearInterval(this.readyTimer);
    this.pc.close();
    const channel = this.channel;
    this.channel = undefined;
    if (channel) await getSupabase().then((sb) => sb.removeChannel(channel));
  }
}
