// The member's one call in progress (issue 18), outside React so any page starts or answers a call and the
// call screen in the layout shows it whatever page is open.
import type { CallType } from '../../domain/calls.ts';
import { createStore, useStore } from '../../ui/external-store.ts';
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

const store = createStore<ActiveCall | undefined>(undefined);

export function getActiveCall(): ActiveCall | undefined {
  return store.get();
}

export function setActiveCall(call: ActiveCall | undefined): void {
  const current = store.get();
  if (current && current !== call) current.localStream?.getTracks().forEach((t) => t.stop());
  store.set(call);
}

export function useActiveCall(): ActiveCall | undefined {
  return useStore(store);
}
