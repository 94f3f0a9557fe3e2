// Starting and answering a call (issue 18): the SQL decides whether the pair may call (can_video_call and the
// row's insert trigger), the member's camera and microphone are asked for before anything rings, and every
// refusal gets the spec's words or a plain explanation.
import { CALL_TEXT, type CallType } from '../../domain/calls.ts';
import { toast } from '../../ui/toast-store.ts';
import { canCall, createCallRow, fetchCallConfig, PremiumRequiredError, setCallStatus } from './calls-api.ts';
import { getActiveCall, setActiveCall, type ActiveCall } from './call-store.ts';
import { MediaUnavailableError, openLocalMedia, type LocalMedia } from './local-media.ts';

export interface CallPeer {
  me: string;
  otherId: string;
  otherName: string;
  otherPhoto: string | undefined;
}

function toastPremium(onSeePlans?: () => void) {
  toast({
    title: CALL_TEXT.premiumTitle,
    description: CALL_TEXT.premiumBody,
    variant: 'destructive',
    ...(onSeePlans ? { action: { label: 'See plans', onClick: onSeePlans } } : {}),
  });
}

function toastProblem(e: unknown, fallback: string) {
  const sentence = e instanceof MediaUnavailableError || e instanceof Error ? e.message : fallback;
  toast({
    title: CALL_TEXT.error,
    description: sentence || fallback,
    variant: 'destructive',
    duration: 8000,
  });
}

function toastBusy() {
  toast({ title: 'Already in a call', description: 'End your current call first.' });
}

/** Media for this transport: Stream's SDK opens the devices itself, so ours only checks permission. */
function keepMedia(media: LocalMedia, provider: ActiveCall['config']['provider']): MediaStream | undefined {
  if (provider === 'webrtc') return media.stream;
  media.stream.getTracks().forEach((t) => t.stop());
  return undefined;
}

export async function startCall(peer: CallPeer, type: CallType, onSeePlans?: () => void): Promise<void> {
  if (getActiveCall()) return toastBusy();
  let media: LocalMedia | undefined;
  try {
    if (!(await canCall(peer.me, peer.otherId))) return toastPremium(onSeePlans);
    const config = await fetchCallConfig();
    media = await openLocalMedia(type);
    const id = crypto.randomUUID();
    await createCallRow({
      id,
      me: peer.me,
      other: peer.otherId,
      type: media.type,
      provider: config.provider,
    });
    setActiveCall({
      id,
      role: 'caller',
      type: media.type,
      ...peer,
      config,
      localStream: keepMedia(media, config.provider),
      ...(media.notice ? { notice: media.notice } : {}),
    });
  } catch (e) {
    media?.stream.getTracks().forEach((t) => t.stop());
    if (e instanceof PremiumRequiredError) return toastPremium(onSeePlans);
    toastProblem(e, CALL_TEXT.createFailed);
  }
}

/** Answers a ringing call; false when it could not be (the card stays so the member may try again). */
export async function acceptCall(callId: string, peer: CallPeer, type: CallType): Promise<boolean> {
  if (getActiveCall()) {
    toastBusy();
    return false;
  }
  let media: LocalMedia | undefined;
  try {
    const config = await fetchCallConfig();
    media = await openLocalMedia(type);
    await setCallStatus(callId, 'active');
    setActiveCall({
      id: callId,
      role: 'recipient',
      type,
      ...peer,
      config,
      localStream: keepMedia(media, config.provider),
      ...(media.notice ? { notice: media.notice } : {}),
    });
    return true;
  } catch (e) {
    media?.stream.getTracks().forEach((t) => t.stop());
    if (e instanceof PremiumRequiredError) toastPremium();
    else toastProblem(e, CALL_TEXT.error);
    return !(e instanceof MediaUnavailableError);
  }
}

export async function declineCall(callId: string): Promise<void> {
  await setCallStatus(callId, 'declined').catch(() => undefined);
}
