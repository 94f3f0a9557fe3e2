// The member's camera and microphone for a call (issue 18). A refused camera falls back to an audio call with
// a sentence saying why; a refused or missing microphone stops the call with a clear explanation, never a
// blank screen.
import type { CallType } from '../../domain/calls.ts';

export interface LocalMedia {
  stream: MediaStream;
  /** What the member can send: audio when video was asked for but the camera is refused or missing. */
  type: CallType;
  notice?: string;
}

/** The camera and microphone cannot be used: `message` says why and what to do. */
export class MediaUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MediaUnavailableError';
  }
}

export const CAMERA_FALLBACK_NOTICE =
  "Your camera is blocked or missing, so you're in this call with audio only. To use video, allow the camera in your browser's site settings.";

function explain(e: unknown): string {
  const name = (e as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return "Your microphone is blocked. Allow it in your browser's site settings (the icon next to the address), then try again.";
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return 'No microphone was found. Connect one, then try again.';
  if (name === 'NotReadableError')
    return 'Your microphone is in use by another app. Close it, then try again.';
  return 'Your microphone could not be started. Check your browser settings, then try again.';
}

export async function openLocalMedia(type: CallType): Promise<LocalMedia> {
  const devices = typeof navigator !== 'undefined' ? navigator.mediaDevices : undefined;
  if (!devices?.getUserMedia)
    throw new MediaUnavailableError(
      'Calls need a secure address: open HeartSync over https (or on this device at localhost) to use your camera and microphone.',
    );
  try {
    const stream = await devices.getUserMedia({
      audio: { echoCancellation: true, noiseSuppression: true },
      video:
        type === 'video' ? { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 720 } } : false,
    });
    return { stream, type };
  } catch (e) {
    if (type === 'video') {
      try {
        const stream = await devices.getUserMedia({
          audio: { echoCancellation: true, noiseSuppression: true },
        });
        return { stream, type: 'audio', notice: CAMERA_FALLBACK_NOTICE };
      } catch (audioError) {
        throw new MediaUnavailableError(explain(audioError));
      }
    }
    throw new MediaUnavailableError(explain(e));
  }
}
