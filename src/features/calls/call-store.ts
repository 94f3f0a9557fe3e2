// The member's one call in progress (issue 18), outside React so any page starts or answers a call and the
// call screen in the layout shows it whatever page is open.
import { useSyncExternalStore } from 'react';
import type { CallType } from '../../domain/calls.ts';
import type { CallConfig } from './calls-api.ts';

export interface ActiveCall {
  id: string;
  role: 'caller' | 'recipient';
  type: CallType;
  me: string;
  otherId: string;
  otherName: string;
  otherPhoto: string | undefined;
  config: CallConfig;
  /** The member's camera and microphone, already allowed (undefined when Stream's SDK takes them itself). */
  localStream: MediaStream | undefined;
  /** Why the call is audio although video was asked for (the camera was refused), shown in the call. */
  notice?: string;
}

let current: ActiveCall | undefined;
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

export function getActiveCall(): ActiveCall | undefined {
  return current;
}

export function setActiveCall(call: ActiveCall | undefined): void {
  if (current && current !== call) current.localStream?.getTracks().forEach((t) => t.stop());
  current = call;
  emit();
}

export function useActiveCall(): ActiveCall | undefined {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}
