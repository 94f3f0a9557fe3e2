// /manage-subscription for a signed-in member (issue 15): the plan as the server recorded it (from the
// replica) and what it unlocks, the Stripe billing portal (change plan, cancel, invoices, card) when a payment
// provider holds the plan, and the plans.
import { useMutation } from '@tanstack/react-query';
import { Check, ExternalLink } from 'lucide-react';
import { Link } from 'react-router-dom';
import { getAgentPlan } from '../../domain/agent-limits.ts';
import type { Entitlement } from '../../domain/subscription.ts';
import { useEntitlement } from '../../session/use-entitlement.ts';
import { getPlanFeatures, getTierName, openBillingPortal, toastPaymentError } from './payments-api.ts';

/** What the member's plan unlocks, by the same rules as the pricing page. */
function planFeatures(entitlement: Entitlement): string[] {
  const agents = getAgentPlan(entitlement);
  return getPlanFeatures(entitlement.tier, agents.agentLimit, agents.advancedAgents);
}

export default function MemberManageSubscriptionPage() {
  const { entitlement } = useEntitlement();
  const portal = useMutation({
    mutationFn: async () => window.location.assign((await openBillingPortal()).url),
    onError: toastPaymentError,
  });
  return (
    <main id="main" className="mx-auto max-w-2xl space-y-4 p-4 md:p-8">
      <h1 className="text-3xl font-bold">Manage Subscription</h1>
      <section className="card space-y-3" aria-label="Your plan">
        {!entitlement ? (
          <p>Loading your plan...</p>
        ) : entitlement.isPremium ? (
          <>
            <p className="font-medium" data-testid="current-plan">
              Your plan: {getTierName(entitlement.tier)}
            </p>
            <ul className="space-y-1 text-sm" aria-label="Your plan includes">
              {planFeatures(entitlement).map((f) => (
                <li key={f} className="flex gap-2">
                  <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
                  {f}
                </li>
              ))}
            </ul>
            {entitlement.hasPaymentCustomer ? (
              <>
                {entitlement.expiryDate && (
                  <p className="text-sm text-muted">
                    Paid until {new Date(entitlement.expiryDate).toLocaleDateString('en')}. A cancelled plan
                    stays active until then.
                  </p>
                )}
                <button
                  type="button"
                  className="btn-primary flex items-center gap-2"
                  disabled={portal.isPending}
                  onClick={() => portal.mutate()}
                >
                  <ExternalLink aria-hidden="true" className="size-4" />
                  Open billing portal
                </button>
              </>
            ) : (
              // A demo payment or an operator's grant: no card, nothing to cancel, no portal to open.
              <p className="text-sm text-muted" data-testid="plan-without-billing">
                {entitlement.expiryDate
                  ? `This plan needs no payment details and ends on ${new Date(entitlement.expiryDate).toLocaleDateString('en')}.`
                  : 'This plan needs no payment details.'}
              </p>
            )}
          </>
        ) : (
          <p data-testid="current-plan">You are on the free plan.</p>
        )}
        <Link to="/pricing" className="link block">
          Compare plans
        </Link>
      </section>
      <p className="text-sm text-muted">
        Payments are handled by the payment provider this instance's operator configured; HeartSync never
        stores card numbers.
      </p>
    </main>
  );
}
