// The member layout's lazy parts (the replica and what needs it), apart from the layout itself so they load
// in parallel with the layout's own code (app.tsx's layout loader waits for all of them).
import { preloadableLazy } from './preloadable-lazy.ts';

const parts = {
  // The local replica (PowerSync, wa-sqlite) is heavy: loaded only once a member is inside.
  replicaProvider: preloadableLazy(() =>
    import('../data/replica.tsx').then((m) => ({ default: m.ReplicaProvider })),
  ),
  // What needs the replica renders inside it, once the local file is open.
  whenReplicaOpen: preloadableLazy(() =>
    import('../data/replica.tsx').then((m) => ({ default: m.WhenReplicaOpen })),
  ),
  // Opens the member's replica by itself so a new match pops up on every page (spec §2).
  matchPopupHost: preloadableLazy(() => import('./match-popup-host.tsx')),
  // Delivery receipts, message notifications and sidebar unread counts; needs the replica, so loaded with it.
  memberBackground: preloadableLazy(() => import('../features/messages/member-background.tsx')),
  // Incoming calls and the call in progress on every member page (issue 18); needs the replica.
  callHost: preloadableLazy(() => import('../features/calls/call-host.tsx')),
  // Lovy's panel reads its history from the replica; its code loads with it, not on the landing.
  lovyPanel: preloadableLazy(() => import('../features/lovy/lovy-panel.tsx')),
};
export const ReplicaProvider = parts.replicaProvider.Component;
export const WhenReplicaOpen = parts.whenReplicaOpen.Component;
export const MatchPopupHost = parts.matchPopupHost.Component;
export const MemberBackground = parts.memberBackground.Component;
export const CallHost = parts.callHost.Component;
export const LovyPanel = parts.lovyPanel.Component;

/**
 * Loaded with the member layout's own code (app.tsx): every part, so none suspends when the
 * replica opens. One that did made React hold the page back for its fallback throttle (about 300 ms): the
 * call host and Lovy's panel, added to the layout after this list, did on every offline start (issue 21).
 */
export const MEMBER_LAYOUT_PARTS: readonly (() => Promise<unknown>)[] = Object.values(parts).map(
  (part) => part.preload,
);
