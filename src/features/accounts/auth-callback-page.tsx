// /auth/callback: where the confirmation (type=signup) and recovery (type=recovery) links land with the session in the URL.
// A confirmation link opened again (used, so refused by the server) says so and points to sign-in.
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { clearPendingConfirmation } from '../../session/pending-confirmation.ts';
import { toastSuccess } from '../../ui/toast-store.ts';
import { AuthCard } from './auth-card.tsx';

function readHashError(): string | null {
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  const query = new URLSearchParams(window.location.search);
  return hash.get('error_description') ?? query.get('error_description');
}

export default function AuthCallbackPage() {
  const [params] = useSearchParams();
  const type = params.get('type');
  const { isAuthenticated, session } = useAuth();
  const navigate = useNavigate();
  const [error] = useState(readHashError);

  useEffect(() => {
    if (error) {
      clearPendingConfirmation();
      return;
    }
    if (!isAuthenticated) return;
    clearPendingConfirmation();
    if (type === 'recovery') {
      void navigate('/reset-password', { replace: true });
    } else {
      toastSuccess('Email confirmed', 'Welcome to HeartSync! Let us build your profile.');
      void navigate('/profile-builder', { replace: true });
    }
  }, [error, isAuthenticated, session, type, navigate]);

  // Without a session after a few seconds the link was not valid.
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setTimedOut(true), 8000);
    return () => clearTimeout(t);
  }, []);

  if (error || (timedOut && !isAuthenticated)) {
    return (
      <AuthCard
        title={type === 'recovery' ? 'This link did not work' : 'This link was already used or has expired'}
      >
        <p role="alert" className="text-center">
          {type === 'recovery'
            ? (error ?? 'The link is invalid or has expired.')
            : 'A confirmation link works once. If you already confirmed your e-mail with it, you can sign in now.'}
        </p>
        <p className="mt-4 text-center text-sm">
          <Link to="/login" className="link">
            Go to Sign In
          </Link>{' '}
          ·{' '}
          <Link to="/signup" className="link">
            Sign up again
          </Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={type === 'recovery' ? 'Opening password reset' : 'Confirming your e-mail'}>
      <p className="text-center" role="status">
        Loading...
      </p>
    </AuthCard>
  );
}
