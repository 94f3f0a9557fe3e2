// The call (issue 18): the other member's video large, the member's own preview small, mute, camera on/off,
// switch to audio and end; the state in words and the call's timer. Full screen on a phone, a centred stage on
// a desktop; it stays up whatever page the member opens meanwhile.
import { useEffect, useRef, useState } from 'react';
import { AudioLines, Mic, MicOff, PhoneOff, Signal, Video, VideoOff, type LucideIcon } from 'lucide-react';
import { formatCallClock, type ConnectionState } from '../../domain/calls.ts';
import { MemberPhoto } from '../profile/member-photo.tsx';
import type { ActiveCall } from './call-store.ts';
import { useCallSession } from './use-call-session.ts';

function MediaView({
  stream,
  kind,
  className,
  muted,
  label,
}: {
  stream: MediaStream | undefined;
  kind: 'video' | 'audio';
  className?: string;
  muted?: boolean;
  label?: string;
}) {
  const ref = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.srcObject = stream ?? null;
    if (stream) void el.play().catch(() => undefined);
  }, [stream]);
  if (kind === 'audio') return <audio ref={ref} autoPlay />;
  return <video ref={ref} autoPlay playsInline muted={muted} className={className} aria-label={label} />;
}

function statusText(
  connection: ConnectionState,
  role: ActiveCall['role'],
  seconds: number | undefined,
): string {
  if (connection === 'joined' && seconds !== undefined) return formatCallClock(seconds);
  if (connection === 'disconnected' && seconds !== undefined) return 'Reconnecting...';
  if (connection === 'failed') return 'Connection failed';
  if (role === 'caller' && (connection === 'calling' || connection === 'disconnected')) return 'Calling...';
  return 'Connecting...';
}

/** A round control of the call: its name is its label and tooltip; `pressed` for the toggles. */
function Control({
  label,
  icon: Icon,
  onClick,
  pressed,
}: {
  label: string;
  icon: LucideIcon;
  onClick: () => void;
  pressed?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      title={label}
      {...(pressed !== undefined ? { 'aria-pressed': pressed } : {})}
      className="flex size-14 items-center justify-center rounded-full bg-white/15 hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-white"
    >
      <Icon aria-hidden="true" className="size-6" />
    </button>
  );
}

const QUALITY_WORDS: Record<string, string> = {
  excellent: 'Excellent connection',
  good: 'Good connection',
  fair: 'Fair connection',
  poor: 'Poor connection',
  unknown: 'Checking connection',
};

export function CallScreen({ call, meName }: { call: ActiveCall; meName: string }) {
  const s = useCallSession(call, meName);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const seconds = s.answeredAt !== undefined ? (now - s.answeredAt) / 1000 : undefined;
  const showRemoteVideo = call.type === 'video' && s.remoteCamera && !!s.remoteStream;
  const kind = call.type === 'audio' ? 'Audio call' : 'Video call';

  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-label={`${kind} with ${call.otherName}`}
      data-testid="call-screen"
      data-connection={s.connection}
      data-bytes-received={s.bytesReceived}
      data-mic={s.micOn ? 'on' : 'off'}
      className="fixed inset-0 z-[60] flex flex-col bg-neutral-950 text-white md:p-6"
    >
      <div className="relative mx-auto flex w-full max-w-5xl flex-1 flex-col overflow-hidden md:rounded-2xl md:bg-neutral-900">
        <MediaView
          stream={s.remoteStream}
          kind="video"
          muted
          label={`${call.otherName}'s video`}
          className={`absolute inset-0 size-full object-cover ${showRemoteVideo ? '' : 'hidden'}`}
        />
        <MediaView stream={s.remoteStream} kind="audio" />
        {!showRemoteVideo && (
          <div className="flex flex-1 flex-col items-center justify-center gap-4 p-6 text-center">
            <MemberPhoto
              path={call.otherPhoto}
              alt=""
              className="size-28 rounded-full object-cover ring-4 ring-white/20 motion-safe:animate-pulse md:size-36"
            />
          </div>
        )}
        <div className="absolute inset-x-0 top-0 bg-gradient-to-b from-black/70 to-transparent p-4 pt-[max(1rem,env(safe-area-inset-top))]">
          <h2 className="text-xl font-semibold">{call.otherName}</h2>
          <p role="status" className="text-sm text-white/80" data-testid="call-status">
            {kind} · {statusText(s.connection, call.role, seconds)}
          </p>
          {s.connection === 'joined' && (
            <p className="mt-1 flex items-center gap-1 text-xs text-white/70">
              <Signal aria-hidden="true" className="size-3" />
              {QUALITY_WORDS[s.quality] ?? QUALITY_WORDS['unknown']}
            </p>
          )}
          {call.notice && (
            <p role="note" className="mt-2 max-w-md rounded-lg bg-white/10 p-2 text-sm">
              {call.notice}
            </p>
          )}
        </div>
        {s.sendsVideo && (
          <MediaView
            stream={s.localStream}
            kind="video"
            muted
            label="Your camera"
            className={`absolute right-3 bottom-28 w-28 rounded-xl border border-white/30 object-cover shadow-lg [transform:scaleX(-1)] md:bottom-24 md:w-48 ${s.cameraOn ? '' : 'opacity-30'}`}
          />
        )}
        <div className="absolute inset-x-0 bottom-0 flex items-center justify-center gap-3 bg-gradient-to-t from-black/70 to-transparent p-4 pb-[max(1rem,env(safe-area-inset-bottom))] md:gap-4">
          <Control
            label={s.micOn ? 'Mute' : 'Unmute'}
            pressed={!s.micOn}
            icon={s.micOn ? Mic : MicOff}
            onClick={s.toggleMic}
          />
          {s.sendsVideo && (
            <Control
              label={s.cameraOn ? 'Turn camera off' : 'Turn camera on'}
              pressed={!s.cameraOn}
              icon={s.cameraOn ? Video : VideoOff}
              onClick={s.toggleCamera}
            />
          )}
          {s.sendsVideo && <Control label="Switch to audio" icon={AudioLines} onClick={s.switchToAudio} />}
          <button
            type="button"
            onClick={s.hangUp}
            aria-label="End call"
            title="End call"
            className="flex size-16 items-center justify-center rounded-full bg-red-600 hover:bg-red-700 focus-visible:outline-2 focus-visible:outline-white"
          >
            <PhoneOff aria-hidden="true" className="size-7" />
          </button>
        </div>
      </div>
    </div>
  );
}
