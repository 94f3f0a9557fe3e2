// Calls through Stream (issue 18) when the instance has STREAM_API_KEY and STREAM_API_SECRET: the SDK is loaded
// only here, when a call starts (never with the landing or the member pages), with a token from our
// getstream-token function; the secret stays on the server. This module is itself imported dynamically by the
// call screen (its chunk, stream-transport-*.js, carries the SDK), so nothing else pulls the SDK in. Our video_calls row still carries the call's state,
// so ringing, cards and the SQL rules are the same as with peer-to-peer calls.
import { CallingState, StreamVideoClient } from '@stream-io/video-react-sdk';
import { CALL_TEXT } from '../../domain/calls.ts';
import { getSupabase } from '../../data/supabase-client.ts';
import type { CallStats, CallTransport, TransportEvents } from './call-transport.ts';

/** A JWT: three base64url parts. Anything else from the function is the spec's "Invalid token data". */
export function isTokenShaped(token: unknown): token is string {
  return typeof token === 'string' && /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(token);
}

async function fetchStreamToken(me: string): Promise<string> {
  const sb = await getSupabase();
  const { data, error } = await sb.functions.invoke<{ token?: unknown }>('getstream-token', {
    method: 'POST',
    body: { user_id: me },
  });
  if (error) throw new Error(CALL_TEXT.clientFailed);
  if (!isTokenShaped(data?.token)) throw new Error(CALL_TEXT.badToken);
  return data.token;
}

type StreamCall = ReturnType<StreamVideoClient['call']>;

export function createStreamTransport(
  options: {
    callId: string;
    me: string;
    meName: string;
    otherId: string;
    role: 'caller' | 'recipient';
    type: 'video' | 'audio';
    apiKey: string;
  },
  events: TransportEvents,
): CallTransport {
  const client = new StreamVideoClient({
    apiKey: options.apiKey,
    user: { id: options.me, name: options.meName },
    tokenProvider: () => fetchStreamToken(options.me),
  });
  const call: StreamCall = client.call('default', options.callId);
  const subscriptions: { unsubscribe(): void }[] = [];
  let left = false;

  return {
    async join() {
      events.onState(options.role === 'caller' ? 'calling' : 'connected');
      await call.getOrCreate({
        ring: options.role === 'caller',
        data: {
          members: [{ user_id: options.me }, { user_id: options.otherId }],
          custom: { callType: options.type, initiatorName: options.meName },
        },
      });
      subscriptions.push(
        call.state.callingState$.subscribe((s) => {
          if (s === CallingState.JOINED) events.onState('joined');
          else if (s === CallingState.RECONNECTING) events.onState('disconnected');
          else if (s === CallingState.RECONNECTING_FAILED) events.onState('failed');
        }),
        call.state.remoteParticipants$.subscribe((people) => {
          const other = people[0];
          if (!other) return;
          const tracks = [
            ...(other.videoStream?.getVideoTracks() ?? []),
            ...(other.audioStream?.getAudioTracks() ?? []),
          ];
          if (tracks.length > 0) events.onRemoteStream(new MediaStream(tracks));
          events.onRemoteCamera(!!other.videoStream);
        }),
        call.camera.state.mediaStream$.subscribe((s) => {
          if (s) events.onLocalStream?.(s);
        }),
      );
      if (options.type === 'video') await call.camera.enable();
      else await call.camera.disable();
      await call.microphone.enable();
      await call.join();
      const state = call.state.callingState;
      if (state === CallingState.LEFT || state === CallingState.IDLE) throw new Error(CALL_TEXT.joinLeft);
    },
    async setMicrophone(on) {
      await (on ? call.microphone.enable() : call.microphone.disable());
    },
    async setCamera(on) {
      await (on ? call.camera.enable() : call.camera.disable());
    },
    async getStats(): Promise<CallStats> {
      const report = call.state.callStatsReport;
      return {
        bytesReceived: 0,
        bytesSent: 0,
        ...(report?.subscriberStats?.averageRoundTripTimeInMs !== undefined
          ? { roundTripTime: report.subscriberStats.averageRoundTripTimeInMs / 1000 }
          : {}),
      };
    },
    async leave() {
      if (left) return;
      left = true;
      for (const s of subscriptions) s.unsubscribe();
      await call.leave().catch(() => undefined);
      await client.disconnectUser().catch(() => undefined);
    },
  };
}
