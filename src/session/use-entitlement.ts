// The member's plan as the product sees it (spec §7: newest subscriptions row), derived like get_entitlement
// from the local replica: the one answer the sidebar, dashboard, premium markers and limits share, offline
// too (a paid period counts until it ends). SQL's get_entitlement stays the authority for what is allowed.
//
// The sidebar sits outside the replica provider (the replica's code loads lazily, never on the landing), so
// the answer is published from inside it (EntitlementPublisher, loaded with the replica) and read anywhere.
import { useSyncExternalStore } from 'react';
import type { Entitlement } from '../domain/subscription.ts';

let current: Entitlement | undefined;
const listeners = new Set<() => void>();

/** Called from inside the replica provider with the derived plan (undefined while unknown). */
export function publishEntitlement(next: Entitlement | undefined): void {
  if (next === current || (next && current && JSON.stringify(next) === JSON.stringify(current))) return;
  current = next;
  for (const l of listeners) l();
}

/** The plan, or undefined until the replica answered: no plan is claimed either way before that. */
export function useEntitlement(): { entitlement: Entitlement | undefined; isLoading: boolean } {
  const entitlement = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
  return { entitlement, isLoading: entitlement === undefined };
}
