// Reset password: the recovery link signs the member in here; the new password must pass the strict rule, then /login.
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { checkPasswordStrict } from '../../domain/password-rules.ts';
import { signOutAsked } from '../../session/sign-out.ts';
import { AuthCard, FieldError } from './auth-card.tsx';
import { updatePassword } from './auth-actions.ts';

export default function ResetPasswordPage() {
  const { isAuthenticated, isLoading } = useAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const check = checkPasswordStrict(password);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!check.valid) {
      setError(check.message);
      return;
    }
    if (password !== confirm) {
      setError('Passwords do not match');
      return;
    }
    setError(undefined);
    setBusy(true);
    if (await updatePassword(password)) {
      // The recovery session has done its job: sign in again with the new password.
      await signOutAsked('local');
      void navigate('/login', { replace: true });
      return;
    }
    setBusy(false);
  }

  if (!isLoading && !isAuthenticated && !busy) {
    return (
      <AuthCard title="Reset your password">
        <p className="text-center">
          This page opens from the link in your password reset e-mail. The link may have expired or been used
          already.
        </p>
        <p className="mt-4 text-center">
          <Link to="/forgot-password" className="link">
            Request a new link
          </Link>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      subtitle="At least 8 characters with a number, upper and lower case and a symbol"
    >
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
        <div>
          <label htmlFor="reset-password" className="mb-1 block text-sm font-medium">
            New password
          </label>
          <input
            id="reset-password"
            type="password"
            autoComplete="new-password"
            className="input"
            value={password}
            aria-describedby="reset-password-feedback"
            onChange={(e) => setPassword(e.target.value)}
          />
          {password && (
            <p id="reset-password-feedback" className="mt-1 text-xs text-muted" aria-live="polite">
              {check.message}
            </p>
          )}
        </div>
        <div>
          <label htmlFor="reset-confirm" className="mb-1 block text-sm font-medium">
            Confirm new password
          </label>
          <input
            id="reset-confirm"
            type="password"
            autoComplete="new-password"
            className="input"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
        </div>
        <FieldError id="reset-error" message={error} />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? 'Updating...' : 'Update password'}
        </button>
      </form>
    </AuthCard>
  );
}
