// The life of the member's call on this device (issue 18): the transport, the row's state from the replica
// (answered, declined, missed, ended by the other side), the ring and join timeouts, the controls, and the
// connection quality written on the row while the call is up.
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  CALL_HEARTBEAT_MS,
  CALL_JOIN_TIMEOUT_MS,
  CALL_RING_MS,
  CALL_TEXT,
  describeEnd,
  rateConnection,
  type ConnectionState,
  type EndReason,
} from '../../domain/calls.ts';
import { useQuery } from '../../data/replica.tsx';
import { toast } from '../../ui/toast-store.ts';
import type { CallTransport, TransportEvents } from './call-transport.ts';
import { setCallStatus, writeConnectionQuality, type CallStep } from './calls-api.ts';
import { setActiveCall, type ActiveCall } from './call-store.ts';
import { WebRtcTransport } from './webrtc-transport.ts';

const STATS_EVERY_MS = 2000;

export interface CallSession {
  connection: ConnectionState;
  remoteStream: MediaStream | undefined;
  localStream: MediaStream | undefined;
  remoteCamera: boolean;
  micOn: boolean;
  cameraOn: boolean;
  /** Whether this side sends video at all (false for audio calls and after "switch to audio"). */
  sendsVideo: boolean;
  /** When the call was answered (this device's clock), for the timer. */
  answeredAt: number | undefined;
  bytesReceived: number;
  quality: string;
  toggleMic(): void;
  toggleCamera(): void;
  switchToAudio(): void;
  hangUp(): void;
}

export function useCallSession(call: ActiveCall, meName: string): CallSession {
  const [connection, setConnection] = useState<ConnectionState>('disconnected');
  const [remoteStream, setRemoteStream] = useState<MediaStream>();
  const [localStream, setLocalStream] = useState<MediaStream | undefined>(call.localStream);
  const [remoteCamera, setRemoteCamera] = useState(call.type === 'video');
  const [micOn, setMicOn] = useState(true);
  const [sendsVideo, setSendsVideo] = useState(
    call.type === 'video' && (call.localStream?.getVideoTracks().length ?? 1) > 0,
  );
  const [cameraOn, setCameraOn] = useState(sendsVideo);
  const [answeredAt, setAnsweredAt] = useState<number | undefined>(
    call.role === 'recipient' ? Date.now() : undefined,
  );
  const [bytesReceived, setBytesReceived] = useState(0);
  const [quality, setQuality] = useState('unknown');
  const transportRef = useRef<CallTransport | undefined>(undefined);
  const finished = useRef(false);
  const connectionRef = useRef(connection);
  connectionRef.current = connection;

  const { data: rows } = useQuery<{ status: string; ended_by: string | null }>(
    'select status, ended_by from video_calls where id = ?',
    [call.id],
  );
  const row = rows[0];
  const statusRef = useRef<string | undefined>(undefined);
  statusRef.current = row?.status;

  /** Ends the call here; `step` is written on the row when this side decides the end. */
  const finish = useCallback(
    (reason: EndReason, step?: CallStep, error?: string) => {
      if (finished.current) return;
      finished.current = true;
      if (step) void setCallStatus(call.id, step).catch(() => undefined);
      void transportRef.current?.leave();
      setActiveCall(undefined);
      toast({
        title: error ? CALL_TEXT.error : CALL_TEXT.ended,
        description: error ?? describeEnd(reason, call.otherName),
        ...(error ? { variant: 'destructive' as const } : {}),
      });
    },
    [call.id, call.otherName],
  );

  // The transport: peer-to-peer unless the instance uses Stream (whose code loads only now).
  useEffect(() => {
    const events: TransportEvents = {
      onState: setConnection,
      onRemoteStream: setRemoteStream,
      onRemoteCamera: setRemoteCamera,
      onRemoteHangup: () => finish('remote_ended'),
      onLocalStream: setLocalStream,
    };
    let cancelled = false;
    void (async () => {
      try {
        const transport =
          call.config.provider === 'getstream'
            ? (await import('./stream-transport.ts')).createStreamTransport(
                {
                  callId: call.id,
                  me: call.me,
                  meName,
                  otherId: call.otherId,
                  role: call.role,
                  type: call.type,
                  apiKey: call.config.streamApiKey ?? '',
                },
                events,
              )
            : new WebRtcTransport(
                {
                  callId: call.id,
                  me: call.me,
                  role: call.role,
                  iceServers: call.config.iceServers,
                  localStream: call.localStream ?? new MediaStream(),
                },
                events,
              );
        if (cancelled) {
          await transport.leave();
          return;
        }
        transportRef.current = transport;
        await transport.join();
      } catch (e) {
        if (!cancelled) finish('failed', 'ended', e instanceof Error ? e.message : CALL_TEXT.clientFailed);
      }
    })();
    return () => {
      cancelled = true;
      void transportRef.current?.leave();
    };
    // One transport per call: meName only labels a Stream call.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [call]);

  // The row, as both replicas see it: the other side's answer, decline and hang-up; the scheduler's timeout.
  useEffect(() => {
    if (!row) return;
    if (row.status === 'active') setAnsweredAt((t) => t ?? Date.now());
    else if (row.status === 'declined') finish('declined');
    else if (row.status === 'missed') finish('timeout');
    else if (row.status === 'ended') finish(row.ended_by === call.me ? 'user_ended' : 'remote_ended');
  }, [row, call.me, finish]);

  // Nobody answered within 30 s: the caller gives up and the call is recorded as missed.
  useEffect(() => {
    if (call.role !== 'caller') return;
    const t = setTimeout(() => {
      if (statusRef.current !== 'active' && connectionRef.current !== 'joined') finish('timeout', 'missed');
    }, CALL_RING_MS);
    return () => clearTimeout(t);
  }, [call.role, finish]);

  // Once answered, media must flow within 30 s.
  const answered = answeredAt !== undefined || connection === 'connected';
  useEffect(() => {
    if (!answered) return;
    const t = setTimeout(() => {
      if (connectionRef.current !== 'joined') finish('failed', 'ended', CALL_TEXT.joinTimeout);
    }, CALL_JOIN_TIMEOUT_MS);
    return () => clearTimeout(t);
  }, [answered, finish]);

  useEffect(() => {
    if (connection === 'failed') finish('failed', 'ended', 'The connection was lost.');
    if (connection === 'joined') setAnsweredAt((t) => t ?? Date.now());
  }, [connection, finish]);

  // Stats every 2 s while the call is up; the quality goes on the row every 10 s (the server's sign of life).
  useEffect(() => {
    if (connection !== 'joined' && connection !== 'disconnected') return;
    let lastWrite = 0;
    const t = setInterval(() => {
      void transportRef.current?.getStats().then((s) => {
        setBytesReceived(s.bytesReceived);
        const q = rateConnection(s);
        setQuality(q);
        if (Date.now() - lastWrite >= CALL_HEARTBEAT_MS) {
          lastWrite = Date.now();
          void writeConnectionQuality(call.id, q).catch(() => undefined);
        }
      });
    }, STATS_EVERY_MS);
    return () => clearInterval(t);
  }, [connection, call.id]);

  return {
    connection,
    remoteStream,
    localStream,
    remoteCamera,
    micOn,
    cameraOn,
    sendsVideo,
    answeredAt,
    bytesReceived,
    quality,
    toggleMic: () => {
      const next = !micOn;
      setMicOn(next);
      void transportRef.current?.setMicrophone(next);
    },
    toggleCamera: () => {
      const next = !cameraOn;
      setCameraOn(next);
      void transportRef.current?.setCamera(next);
    },
    switchToAudio: () => {
      setCameraOn(false);
      setSendsVideo(false);
      void transportRef.current?.setCamera(false);
      for (const t of call.localStream?.getVideoTracks() ?? []) t.stop();
    },
    hangUp: () => {
      // A call still ringing is cancelled; either way the row says who ended it.
      finish('user_ended', 'ended');
    },
  };
}
