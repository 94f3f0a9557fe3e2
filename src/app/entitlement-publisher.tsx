// Derives the member's plan from the replica's subscriptions row and publishes it for the whole layout
// (use-entitlement.ts); re-derived when the row changes and when a paid period ends while the app is open.
import { useEffect, useState } from 'react';
import { useQuery } from '../data/replica.tsx';
import { deriveReplicaEntitlement, type ReplicaSubscriptionRow } from '../domain/subscription.ts';
import { publishEntitlement } from '../session/use-entitlement.ts';

export function EntitlementPublisher({ me }: { me: string }) {
  const { data, isLoading } = useQuery<ReplicaSubscriptionRow>(
    `select plan_id, billing_cycle, status, current_period_end, has_payment_customer
       from subscriptions where user_id = ? order by created_at desc limit 1`,
    [me],
  );
  const row = data[0];
  // The end of the paid period, when it is ahead: the plan is derived again then.
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const end = row?.current_period_end ? Date.parse(row.current_period_end) - Date.now() : NaN;
    if (!(end > 0) || end > 2 ** 31 - 1) return;
    const t = setTimeout(() => setTick((n) => n + 1), end + 1000);
    return () => clearTimeout(t);
  }, [row?.current_period_end]);
  useEffect(() => {
    if (!isLoading) publishEntitlement(deriveReplicaEntitlement(row), me);
  }, [row, isLoading, tick, me]);
  useEffect(() => () => publishEntitlement(undefined), []);
  return null;
}
