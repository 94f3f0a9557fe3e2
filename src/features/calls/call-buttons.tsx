// The audio and video call buttons of a match's thread (issue 18). Whether the pair may call is decided in SQL
// when pressed (can_video_call), never by hiding the buttons: a free member learns what it takes.
import { Phone, Video } from 'lucide-react';
import { useNavigate } from 'react-router-dom';
import { useState } from 'react';
import { startCall, type CallPeer } from './start-call.ts';

export function CallButtons(peer: CallPeer) {
  const navigate = useNavigate();
  const [starting, setStarting] = useState(false);
  function start(type: 'video' | 'audio') {
    setStarting(true);
    void startCall(peer, type, () => void navigate('/pricing')).finally(() => setStarting(false));
  }
  return (
    <>
      <button
        type="button"
        className="btn-ghost px-2"
        disabled={starting}
        aria-label={`Audio call with ${peer.otherName}`}
        title="Audio call"
        onClick={() => start('audio')}
      >
        <Phone aria-hidden="true" className="size-5" />
      </button>
      <button
        type="button"
        className="btn-ghost px-2"
        disabled={starting}
        aria-label={`Video call with ${peer.otherName}`}
        title="Video call"
        onClick={() => start('video')}
      >
        <Video aria-hidden="true" className="size-5" />
      </button>
    </>
  );
}
