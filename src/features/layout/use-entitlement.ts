// The member's subscription as the product sees it (spec §7: newest subscriptions row), derived like get_entitlement.
import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../../app/auth-context.tsx';
import { getSupabase } from '../../data/supabase-client.ts';
import { deriveEntitlement, type Entitlement, type SubscriptionRecord } from '../../domain/subscription.ts';

export const ENTITLEMENT_KEY = 'entitlement';

export function useEntitlement(): { entitlement: Entitlement | undefined; isLoading: boolean } {
  const { user } = useAuth();
  const { data, isLoading } = useQuery({
    queryKey: [ENTITLEMENT_KEY, user?.id],
    enabled: !!user,
    staleTime: 10 * 60 * 1000,
    queryFn: async () => {
      const sb = await getSupabase();
      const { data: rows, error } = await sb
        .from('subscriptions')
        .select(
          'plan_id, billing_cycle, status, current_period_end, stripe_customer_id, stripe_subscription_id',
        )
        .eq('user_id', user!.id)
        .order('created_at', { ascending: false })
        .limit(1);
      if (error) throw error;
      return deriveEntitlement((rows?.[0] as SubscriptionRecord | undefined) ?? null);
    },
  });
  return { entitlement: user ? data : undefined, isLoading };
}
