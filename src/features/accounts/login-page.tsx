// Sign-in screen (spec §2): e-mail, password with show/hide, Remember me (checked), Forgot password, Create Account, Back to Home.
// A missing field is said beside the form until it is edited; a refused sign-in is said once, by the toast.
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useAuth } from '../../session/auth-context.tsx';
import { validateSignin } from '../../domain/signup-validation.ts';
import { AuthCard } from './auth-card.tsx';
import { signIn } from './auth-actions.ts';

function getRedirectTo(state: unknown): string {
  const r = (state as { redirectTo?: unknown } | null)?.redirectTo;
  // Only in-app paths: never send a member to another origin.
  return typeof r === 'string' && r.startsWith('/') && !r.startsWith('//') ? r : '/';
}

export default function LoginPage() {
  const { isAuthenticated } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [show, setShow] = useState(false);
  const [remember, setRemember] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (isAuthenticated && !busy) return <Navigate to="/find-matches" replace />;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const invalid = validateSignin(email, password);
    if (invalid) {
      setError(invalid);
      return;
    }
    setBusy(true);
    setError(null);
    const result = await signIn(email, password, remember);
    if (result.ok) {
      void navigate(getRedirectTo(location.state), { replace: true });
      return;
    }
    // The sign-in action already says why in its toast ("Login failed"): said once, not twice.
    setBusy(false);
  }

  return (
    <AuthCard title="Welcome back" subtitle="Sign in to continue your journey">
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
        {error && (
          <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-800">
            {error}
          </div>
        )}
        <div>
          <label htmlFor="login-email" className="mb-1 block text-sm font-medium">
            Email
          </label>
          <input
            id="login-email"
            type="email"
            autoComplete="email"
            required
            className="input"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(null);
            }}
          />
        </div>
        <div>
          <label htmlFor="login-password" className="mb-1 block text-sm font-medium">
            Password
          </label>
          <div className="relative">
            <input
              id="login-password"
              type={show ? 'text' : 'password'}
              autoComplete="current-password"
              required
              className="input pr-16"
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                setError(null);
              }}
            />
            <button
              type="button"
              className="absolute inset-y-0 right-1 my-1 rounded px-2 text-sm text-muted hover:text-fg"
              aria-label={show ? 'Hide password' : 'Show password'}
              aria-pressed={show}
              onClick={() => setShow((s) => !s)}
            >
              {show ? 'Hide' : 'Show'}
            </button>
          </div>
        </div>
        <div className="flex items-center justify-between text-sm">
          <label className="flex items-center gap-2">
            <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
            Remember me
          </label>
          <Link to="/forgot-password" className="link">
            Forgot password?
          </Link>
        </div>
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? 'Signing in...' : 'Sign In'}
        </button>
      </form>
      <p className="mt-6 text-center text-sm">
        New to HeartSync?{' '}
        <Link to="/signup" className="link">
          Create Account
        </Link>
      </p>
      <p className="mt-2 text-center text-sm">
        <Link to="/" className="link">
          Back to Home
        </Link>
      </p>
    </AuthCard>
  );
}
