// /payment-success (issue 15): confirms the new plan once the server has recorded the payment, read from the
// replica (the subscriptions row the webhook or demo checkout wrote), never from the URL.
import { CheckCircle2 } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router-dom';
import { useEntitlement } from '../../session/use-entitlement.ts';
import { toast } from '../../ui/toast-store.ts';
import { getTierName } from './payments-api.ts';

export default function PaymentSuccessPage() {
  const { entitlement } = useEntitlement();
  const told = useRef(false);
  const confirmed = entitlement?.isPremium === true;

  useEffect(() => {
    if (!confirmed || told.current || !entitlement) return;
    told.current = true;
    toast({
      title: 'Subscription Updated',
      description: `Your ${getTierName(entitlement.tier)} subscription has been activated.`,
    });
  }, [confirmed, entitlement]);

  return (
    <main id="main" className="mx-auto max-w-lg space-y-4 p-4 md:p-8">
      <h1 className="text-3xl font-bold">{confirmed ? 'Payment received' : 'Confirming your payment...'}</h1>
      <div className="card space-y-3" role="status">
        {confirmed && entitlement ? (
          <>
            <p className="flex items-center gap-2 font-medium">
              <CheckCircle2 aria-hidden="true" className="size-5 text-green-600" />
              Your {getTierName(entitlement.tier)} subscription has been activated.
            </p>
            {entitlement.expiryDate && (
              <p className="text-sm text-muted">
                It renews or ends on {new Date(entitlement.expiryDate).toLocaleDateString('en')}.
              </p>
            )}
            <Link to="/find-matches" className="btn-primary inline-block">
              Find matches
            </Link>
          </>
        ) : (
          <p>We are waiting for the payment to be recorded. This page updates by itself.</p>
        )}
      </div>
    </main>
  );
}
