// /checkout?plan=<id>&cycle=monthly|yearly (issue 15): pays for the chosen plan. With Stripe the member goes to
// Stripe's Checkout; on a demo instance a clearly labelled demo payment grants the plan through the same
// server path a verified payment uses. Either way the plan is confirmed by /payment-success from the server.
import { useMutation, useQuery } from '@tanstack/react-query';
import { CreditCard, FlaskConical } from 'lucide-react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import {
  fetchPlans,
  formatPrice,
  payWithDemoCheckout,
  startStripeCheckout,
  toastPaymentError,
  type BillingCycle,
} from './payments-api.ts';

export default function CheckoutPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const planId = params.get('plan') ?? '';
  const cycle: BillingCycle = params.get('cycle') === 'yearly' ? 'yearly' : 'monthly';
  const { data, isLoading } = useQuery({ queryKey: ['plans'], queryFn: fetchPlans, staleTime: 10 * 60_000 });
  const plan = data?.plans.find((p) => p.id === planId);

  const pay = useMutation({
    mutationFn: async () => {
      if (!plan || !data) throw new Error('Please choose a plan and a billing period.');
      if (data.checkout === 'stripe') {
        const { url } = await startStripeCheckout(plan.id, cycle);
        window.location.assign(url);
        return;
      }
      await payWithDemoCheckout(plan.id, cycle);
      void navigate(`/payment-success?plan=${encodeURIComponent(plan.id)}`);
    },
    onError: toastPaymentError,
  });

  if (isLoading) return <p className="p-8">Loading...</p>;
  return (
    <main id="main" className="mx-auto max-w-lg space-y-4 p-4 md:p-8">
      <h1 className="text-3xl font-bold">Checkout</h1>
      {!plan ? (
        <div className="card">
          <p>That plan is not offered here.</p>
          <Link to="/pricing" className="btn-primary mt-4 inline-block">
            See the plans
          </Link>
        </div>
      ) : (
        <div className="card space-y-4">
          <div>
            <h2 className="text-xl font-semibold">HeartSync {plan.name}</h2>
            <p className="text-muted">
              {formatPrice(plan.prices[cycle], plan.currency)} {cycle === 'monthly' ? 'a month' : 'a year'}
            </p>
          </div>
          {data?.checkout === 'demo' && (
            <p
              className="flex gap-2 rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
              data-testid="demo-payment-notice"
            >
              <FlaskConical aria-hidden="true" className="size-5 shrink-0" />
              <span>
                <strong>Demo payment: no money moves.</strong> This instance runs without a payment provider;
                paying here gives you the plan for one {cycle === 'monthly' ? 'month' : 'year'} to try it.
              </span>
            </p>
          )}
          {data?.checkout === 'none' ? (
            <p>Payments are not set up on this instance yet.</p>
          ) : (
            <button
              type="button"
              className="btn-primary flex w-full items-center justify-center gap-2"
              disabled={pay.isPending}
              onClick={() => pay.mutate()}
            >
              <CreditCard aria-hidden="true" className="size-4" />
              {pay.isPending
                ? 'Processing...'
                : data?.checkout === 'demo'
                  ? `Pay ${formatPrice(plan.prices[cycle], plan.currency)} (demo)`
                  : 'Continue to secure payment'}
            </button>
          )}
          <Link to="/pricing" className="link block text-center text-sm">
            Back to plans
          </Link>
        </div>
      )}
    </main>
  );
}
