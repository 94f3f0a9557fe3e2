// The member's plan as the product sees it (spec §7: newest subscriptions row), derived like get_entitlement
// from the local replica: the one answer the sidebar, dashboard, premium markers and limits share, offline
// too (a paid period counts until it ends). SQL's get_entitlement stays the authority for what is allowed.
//
// The sidebar sits outside the replica provider (the replica's code loads lazily, never on the landing), so
// the answer is published from inside it (EntitlementPublisher, loaded with the replica) and read anywhere.
// Each answer is also kept on the device (spec §4's cached subscription): until the replica answers, the
// sidebar and dashboard paint the last known plan (useShownEntitlement), never anything that decides.
import { useSyncExternalStore } from 'react';
import {
  resolveEntitlement,
  toCachedSubscription,
  type CachedSubscription,
  type Entitlement,
} from '../domain/subscription.ts';
import { registerSignOutCleanup, useAuth } from './auth-context.tsx';

/** The one local-storage key of the cached subscription (spec §4). */
export const CACHED_PLAN_KEY = 'heartsync.subscription';

interface StoredPlan {
  userId: string;
  plan: CachedSubscription | null;
}

let current: Entitlement | undefined;
const listeners = new Set<() => void>();

function writeCachedPlan(userId: string, entitlement: Entitlement): void {
  try {
    const stored: StoredPlan = { userId, plan: toCachedSubscription(entitlement) };
    localStorage.setItem(CACHED_PLAN_KEY, JSON.stringify(stored));
  } catch {
    /* storage unavailable: nothing is painted early, nothing else changes */
  }
}

/** The plan last seen for this member on this device (null: none, or another member's). */
export function readCachedPlan(userId: string): CachedSubscription | null {
  try {
    const stored = JSON.parse(localStorage.getItem(CACHED_PLAN_KEY) ?? 'null') as StoredPlan | null;
    return stored?.userId === userId ? stored.plan : null;
  } catch {
    return null;
  }
}

function clearCachedPlan(): void {
  try {
    localStorage.removeItem(CACHED_PLAN_KEY);
  } catch {
    /* storage unavailable */
  }
}

// The next person on this device learns nothing of this member's plan.
registerSignOutCleanup(async () => clearCachedPlan());

/**
 * Called from inside the replica provider with the derived plan (undefined while unknown) and whose it is;
 * a known plan is also kept on the device for the next start.
 */
export function publishEntitlement(next: Entitlement | undefined, userId?: string): void {
  if (next && userId) writeCachedPlan(userId, next);
  if (next === current || (next && current && JSON.stringify(next) === JSON.stringify(current))) return;
  current = next;
  for (const l of listeners) l();
}

function usePublished(): Entitlement | undefined {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

/** The plan, or undefined until the replica answered: no plan is claimed either way before that. */
export function useEntitlement(): { entitlement: Entitlement | undefined; isLoading: boolean } {
  const entitlement = usePublished();
  return { entitlement, isLoading: entitlement === undefined };
}

/**
 * What to paint: the replica's plan, else the last one known on this device for this member (a paid period
 * counts until its date), else undefined. Only for showing a plan; limits and prompts use useEntitlement.
 */
export function useShownEntitlement(): Entitlement | undefined {
  const published = usePublished();
  const { user } = useAuth();
  if (published || !user) return published;
  const cached = readCachedPlan(user.id);
  return cached ? resolveEntitlement({ signedIn: true, server: null, cached }) : undefined;
}
