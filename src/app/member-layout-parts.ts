// The member layout's lazy parts (the replica and what needs it), apart from the layout itself so the entry
// script can start loading them for a returning member while the layout's own code loads (app.tsx).
import { preloadableLazy } from './preloadable-lazy.ts';

// The local replica (PowerSync, wa-sqlite) is heavy: loaded only once a member is inside.
const replicaProvider = preloadableLazy(() =>
  import('../data/replica.tsx').then((m) => ({ default: m.ReplicaProvider })),
);
// Opens the member's replica by itself so a new match pops up on every page (spec §2).
const matchPopupHost = preloadableLazy(() => import('./match-popup-host.tsx'));
// Delivery receipts, message notifications and sidebar unread counts; needs the replica, so loaded with it.
const memberBackground = preloadableLazy(() => import('../features/messages/member-background.tsx'));
// Incoming calls and the call in progress on every member page (issue 18); needs the replica.
const callHost = preloadableLazy(() => import('../features/calls/call-host.tsx'));
export const CallHost = callHost.Component;
// Lovy's panel reads its history from the replica; its code loads with it, not on the landing.
const lovyPanel = preloadableLazy(() => import('../features/lovy/lovy-panel.tsx'));
export const LovyPanel = lovyPanel.Component;
export const ReplicaProvider = replicaProvider.Component;
export const MatchPopupHost = matchPopupHost.Component;
export const MemberBackground = memberBackground.Component;

/** Preloaded for a returning member from the entry script (app.tsx). */
export const MEMBER_LAYOUT_PARTS: readonly (() => Promise<unknown>)[] = [
  replicaProvider.preload,
  matchPopupHost.preload,
  memberBackground.preload,
];
