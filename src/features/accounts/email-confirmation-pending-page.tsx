// After sign-up: tells the member where the confirmation link went and lets them resend it.
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { PENDING_EMAIL_ADDRESS_KEY, readSessionFlag } from '../../session/pending-confirmation.ts';
import { getSupabase } from '../../data/supabase-client.ts';
import { toastError, toastSuccess } from '../../ui/toast-store.ts';
import { AuthCard } from './auth-card.tsx';

export default function EmailConfirmationPendingPage() {
  const location = useLocation();
  const stateEmail = (location.state as { email?: unknown } | null)?.email;
  const email = typeof stateEmail === 'string' ? stateEmail : readSessionFlag(PENDING_EMAIL_ADDRESS_KEY);
  const [busy, setBusy] = useState(false);

  async function resend() {
    if (!email) return;
    setBusy(true);
    try {
      const sb = await getSupabase();
      const { error } = await sb.auth.resend({
        type: 'signup',
        email,
        options: { emailRedirectTo: `${window.location.origin}/auth/callback?type=signup` },
      });
      if (error) throw error;
      toastSuccess('Email sent', 'We sent the confirmation link again.');
    } catch {
      toastError('Could not resend the email', 'Please try again in a few minutes.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Check your email">
      <div className="space-y-3 text-center">
        {email ? (
          <p>
            We sent a confirmation link to <strong data-testid="pending-email">{email}</strong>.
          </p>
        ) : (
          <p>We sent a confirmation link to the address you signed up with.</p>
        )}
        <p className="text-sm text-muted">
          Open it on this device to activate your account. It can take a minute to arrive; check your spam
          folder too.
        </p>
        {email && (
          <button type="button" className="btn-secondary" disabled={busy} onClick={() => void resend()}>
            {busy ? 'Sending...' : 'Resend confirmation email'}
          </button>
        )}
        <p className="text-sm">
          Already confirmed?{' '}
          <Link to="/login" className="link">
            Sign In
          </Link>
        </p>
      </div>
    </AuthCard>
  );
}
