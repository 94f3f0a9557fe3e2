// Forgot password: asks for the e-mail and sends the reset link (which lands on /reset-password).
import { useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { isValidEmail } from '../../domain/signup-validation.ts';
import { AuthCard, FieldError } from './auth-card.tsx';
import { requestPasswordReset } from './auth-actions.ts';

export default function ForgotPasswordPage() {
  const { isAuthenticated } = useAuth();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  if (isAuthenticated) return <Navigate to="/find-matches" replace />;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!isValidEmail(email)) {
      setError('Please enter a valid email address.');
      return;
    }
    setError(undefined);
    setBusy(true);
    setSent(await requestPasswordReset(email));
    setBusy(false);
  }

  return (
    <AuthCard title="Forgot your password?" subtitle="We will e-mail you a link to choose a new one">
      {sent ? (
        <div role="status" className="space-y-3 text-center">
          <p>
            If an account exists for <strong>{email.trim()}</strong>, a reset link is on its way. The link
            works once and for a limited time.
          </p>
          <p className="text-sm text-muted">
            Did not get it? Check your spam folder or try again in a few minutes.
          </p>
        </div>
      ) : (
        <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
          <div>
            <label htmlFor="forgot-email" className="mb-1 block text-sm font-medium">
              Email
            </label>
            <input
              id="forgot-email"
              type="email"
              autoComplete="email"
              className="input"
              value={email}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'forgot-email-error' : undefined}
              onChange={(e) => setEmail(e.target.value)}
            />
            <FieldError id="forgot-email-error" message={error} />
          </div>
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? 'Sending...' : 'Send reset link'}
          </button>
        </form>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to="/login" className="link">
          Back to Sign In
        </Link>
      </p>
    </AuthCard>
  );
}
