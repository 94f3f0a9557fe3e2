// /pricing (issue 15): Free and this instance's paid plans, monthly or yearly, what each unlocks, the
// member's current plan marked. Plans and prices come from the server's configuration (the plans function).
import { useQuery } from '@tanstack/react-query';
import { Check, Crown } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { getAgentPlan } from '../../domain/agent-limits.ts';
import { useAuth } from '../../session/auth-context.tsx';
import { useEntitlement } from '../../session/use-entitlement.ts';
import { fetchPlans, formatPrice, getPlanFeatures, type BillingCycle } from './payments-api.ts';

function Features({ items }: { items: string[] }) {
  return (
    <ul className="mt-4 space-y-2 text-sm">
      {items.map((f) => (
        <li key={f} className="flex gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
          {f}
        </li>
      ))}
    </ul>
  );
}

export default function PricingPage() {
  const { isAuthenticated } = useAuth();
  const { entitlement } = useEntitlement();
  const navigate = useNavigate();
  const [cycle, setCycle] = useState<BillingCycle>('monthly');
  const { data, isLoading, isError } = useQuery({
    queryKey: ['plans'],
    queryFn: fetchPlans,
    staleTime: 10 * 60_000,
  });
  const current =
    isAuthenticated && entitlement ? (entitlement.isPremium ? entitlement.planId : 'free') : undefined;

  const choose = (planId: string) => {
    const to = `/checkout?plan=${encodeURIComponent(planId)}&cycle=${cycle}`;
    void navigate(
      isAuthenticated ? to : '/login',
      isAuthenticated ? undefined : { state: { redirectTo: to } },
    );
  };

  return (
    <main id="main" className="mx-auto max-w-5xl space-y-6 p-4 md:p-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Pricing</h1>
          <p className="mt-1 text-muted">Start free. Upgrade when you want more.</p>
        </div>
        <fieldset className="flex rounded-lg border border-border p-1" aria-label="Billing period">
          {(['monthly', 'yearly'] as const).map((c) => (
            <label
              key={c}
              className={`cursor-pointer rounded-md px-3 py-1.5 text-sm ${cycle === c ? 'bg-primary text-primary-fg' : ''}`}
            >
              <input
                type="radio"
                name="cycle"
                value={c}
                checked={cycle === c}
                onChange={() => setCycle(c)}
                className="sr-only"
              />
              {c === 'monthly' ? 'Monthly' : 'Yearly'}
            </label>
          ))}
        </fieldset>
      </div>
      {isError && <p role="alert">The plans could not be loaded. Please try again.</p>}
      {isLoading && <p>Loading plans...</p>}
      {data && (
        <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-4">
          <li className="card flex flex-col" data-testid="plan-free">
            <h2 className="text-xl font-semibold">Free</h2>
            <p className="mt-2 text-2xl font-bold">{formatPrice(0, data.plans[0]?.currency ?? 'usd')}</p>
            <Features items={getPlanFeatures(undefined, 1, false)} />
            {current === 'free' && (
              <p className="mt-auto pt-4 text-sm font-medium text-primary">Your current plan</p>
            )}
          </li>
          {data.plans.map((p) => {
            const agents = getAgentPlan({ isPremium: true, tier: p.id });
            const isCurrent = current === p.id;
            return (
              <li key={p.id} className="card flex flex-col" data-testid={`plan-${p.id}`}>
                <h2 className="flex items-center gap-2 text-xl font-semibold">
                  <Crown aria-hidden="true" className="size-5 text-amber-500" />
                  {p.name}
                </h2>
                <p className="mt-2 text-2xl font-bold">
                  {formatPrice(p.prices[cycle], p.currency)}
                  <span className="text-sm font-normal text-muted">
                    {cycle === 'monthly' ? ' a month' : ' a year'}
                  </span>
                </p>
                <Features items={getPlanFeatures(p.id, agents.agentLimit, agents.advancedAgents)} />
                <div className="mt-auto pt-4">
                  {isCurrent ? (
                    <p className="text-sm font-medium text-primary">Your current plan</p>
                  ) : (
                    <button
                      type="button"
                      className="btn-primary w-full whitespace-nowrap lg:px-3 lg:text-sm"
                      disabled={data.checkout === 'none'}
                      onClick={() => choose(p.id)}
                    >
                      Choose {p.name}
                    </button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {data?.checkout === 'none' && (
        <p className="text-sm text-muted">Payments are not set up on this instance yet.</p>
      )}
      {isAuthenticated && entitlement?.isPremium && (
        <p className="text-sm">
          <Link to="/manage-subscription" className="link">
            Manage your subscription
          </Link>
        </p>
      )}
    </main>
  );
}
