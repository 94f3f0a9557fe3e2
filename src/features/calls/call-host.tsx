// Calls on every member page (issue 18): the incoming call (caller's name and first photo, Accept, Decline,
// and a browser notification that closes after 30 seconds) and the call screen of the call in progress.
// Loaded with the replica, which brings the call rows of the member's matches.
import { useEffect, useRef, useState } from 'react';
import { Phone, PhoneOff, Video } from 'lucide-react';
import { CALL_RING_MS, type CallType } from '../../domain/calls.ts';
import { useAuth } from '../../session/auth-context.tsx';
import { useQuery } from '../../data/replica.tsx';
import { MemberPhoto, parseList } from '../profile/member-photo.tsx';
import { useActiveCall } from './call-store.ts';
import { CallScreen } from './call-screen.tsx';
import { acceptCall, declineCall } from './start-call.ts';
import { parseTimestamp } from '../../ui/time-label.ts';

/** A ringing row older than this (by this device's clock) is a leftover of a time offline, not a call. */
const STALE_RING_MS = 2 * 60_000;

interface Ringing {
  id: string;
  caller_id: string;
  call_type: string;
  created_at: string;
  name: string | null;
  photos: string | null;
}

function parseTime(at: string): number {
  return parseTimestamp(at)?.getTime() ?? Date.now();
}

function IncomingCall({
  me,
  ring,
  busy,
  onGone,
}: {
  me: string;
  ring: Ringing;
  busy: boolean;
  onGone: () => void;
}) {
  const type: CallType = ring.call_type === 'audio' ? 'audio' : 'video';
  const name = ring.name ?? 'Your match';
  const photo = parseList(ring.photos)[0];
  const [working, setWorking] = useState(false);
  const kind = type === 'audio' ? 'audio call' : 'video call';

  // The browser notification (when the member allowed them), closed after 30 s like the ring itself.
  useEffect(() => {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    let n: Notification | undefined;
    try {
      n = new Notification(`Incoming ${kind}`, {
        body: `${name} is calling you`,
        tag: `call:${ring.id}`,
        requireInteraction: true,
      });
      n.onclick = () => {
        window.focus();
        n?.close();
      };
    } catch {
      n = undefined;
    }
    if (typeof navigator.vibrate === 'function') navigator.vibrate([400, 200, 400]);
    const t = setTimeout(() => n?.close(), CALL_RING_MS);
    return () => {
      clearTimeout(t);
      n?.close();
    };
  }, [ring.id, kind, name]);

  // Escape or "Not now" only hides the card: the call rings out and is recorded as missed.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onGone();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onGone]);

  return (
    <div
      role="alertdialog"
      aria-label={`Incoming ${kind} from ${name}`}
      aria-describedby="incoming-call-text"
      className="fixed inset-x-2 top-2 z-[70] mx-auto max-w-md rounded-2xl border border-border bg-card p-4 text-fg shadow-2xl motion-safe:animate-[fade-in_150ms_ease-out] md:top-4"
    >
      <div className="flex items-center gap-3">
        <MemberPhoto path={photo} alt="" className="size-14 rounded-full object-cover" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-lg font-semibold">{name}</p>
          <p id="incoming-call-text" className="text-sm text-muted">
            Incoming {kind}
          </p>
        </div>
      </div>
      <div className="mt-4 flex items-center justify-end gap-2">
        <button type="button" className="btn-ghost" onClick={onGone}>
          Not now
        </button>
        <button
          type="button"
          disabled={working}
          className="flex items-center gap-2 rounded-full bg-red-600 px-4 py-2 font-medium text-white hover:bg-red-700 disabled:opacity-50"
          onClick={() => {
            setWorking(true);
            void declineCall(ring.id).finally(onGone);
          }}
        >
          <PhoneOff aria-hidden="true" className="size-4" />
          Decline
        </button>
        {!busy && (
          <button
            type="button"
            disabled={working}
            className="flex items-center gap-2 rounded-full bg-green-600 px-4 py-2 font-medium text-white hover:bg-green-700 disabled:opacity-50"
            onClick={() => {
              setWorking(true);
              void acceptCall(
                ring.id,
                { me, otherId: ring.caller_id, otherName: name, otherPhoto: photo },
                type,
              ).then((ok) => (ok ? onGone() : setWorking(false)));
            }}
          >
            {type === 'audio' ? (
              <Phone aria-hidden="true" className="size-4" />
            ) : (
              <Video aria-hidden="true" className="size-4" />
            )}
            Accept
          </button>
        )}
      </div>
    </div>
  );
}

export default function CallHost() {
  const { user } = useAuth();
  const me = user?.id ?? '';
  const active = useActiveCall();
  const { data: ringing } = useQuery<Ringing>(
    `select c.id, c.caller_id, c.call_type, c.created_at, pp.name, pp.photos
       from video_calls c left join public_profiles pp on pp.id = c.caller_id
      where c.recipient_id = ? and c.status = 'ringing'
      order by c.created_at desc limit 1`,
    [me],
  );
  const { data: mine } = useQuery<{ name: string | null }>('select name from profiles where id = ?', [me]);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  // When each ring was first seen here: it shows for 30 s from then (device clocks may differ from the server's).
  const firstSeen = useRef(new Map<string, number>());
  const [, setTick] = useState(0);

  const ring = ringing[0];
  if (ring && !firstSeen.current.has(ring.id)) firstSeen.current.set(ring.id, Date.now());
  const seenAt = ring ? (firstSeen.current.get(ring.id) ?? Date.now()) : 0;
  const fresh =
    !!ring &&
    !hidden.has(ring.id) &&
    active?.id !== ring.id &&
    Date.now() - seenAt < CALL_RING_MS &&
    Date.now() - parseTime(ring.created_at) < STALE_RING_MS;

  useEffect(() => {
    if (!fresh) return;
    const t = setTimeout(() => setTick((n) => n + 1), CALL_RING_MS - (Date.now() - seenAt) + 50);
    return () => clearTimeout(t);
  }, [fresh, seenAt]);

  return (
    <>
      {fresh && ring && (
        <IncomingCall
          me={me}
          ring={ring}
          busy={!!active}
          onGone={() => setHidden((s) => new Set(s).add(ring.id))}
        />
      )}
      {active && <CallScreen key={active.id} call={active} meName={mine[0]?.name ?? 'Member'} />}
    </>
  );
}
