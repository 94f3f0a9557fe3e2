// Sign-up screen (spec §2, §5): names, e-mail, password with the strength bar, terms notice; then e-mail confirmation.
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  checkPasswordForSignup,
  getPasswordStrength,
  type PasswordStrength,
} from '../../domain/password-rules.ts';
import { validateSignup, type SignupErrors } from '../../domain/signup-validation.ts';
import { toastError } from '../../ui/toast-store.ts';
import { AuthCard, FieldError } from './auth-card.tsx';
import { signUp } from './auth-actions.ts';

const BAR: Record<PasswordStrength, { width: string; colour: string; label: string }> = {
  weak: { width: 'w-1/5', colour: 'bg-red-600', label: 'Weak' },
  fair: { width: 'w-2/5', colour: 'bg-orange-500', label: 'Fair' },
  good: { width: 'w-3/5', colour: 'bg-yellow-500', label: 'Good' },
  strong: { width: 'w-full', colour: 'bg-green-600', label: 'Strong' },
};

export default function SignupPage() {
  const navigate = useNavigate();
  const [form, setForm] = useState({ firstName: '', lastName: '', email: '', password: '' });
  const [errors, setErrors] = useState<SignupErrors>({});
  const [busy, setBusy] = useState(false);
  const strength = getPasswordStrength(form.password);
  const feedback = checkPasswordForSignup(form.password);

  const [showPassword, setShowPassword] = useState(false);
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (e: { target: { value: string } }) => {
      const next = { ...form, [name]: e.target.value };
      setForm(next);
      // A field's error goes as soon as the field is fixed (the others keep theirs until they are).
      if (errors[name]) setErrors((old) => ({ ...old, [name]: validateSignup(next)[name] }));
    },
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `signup-${name}-error` : undefined,
  });

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const found = validateSignup(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    const result = await signUp(form);
    if (result.ok) {
      const email = form.email.trim();
      setTimeout(() => void navigate('/email-confirmation-pending', { state: { email } }), 100);
      return;
    }
    // The screen's own failure toast replaces the action's (one toast at a time), except for an existing account.
    if (!result.alreadyExists && !(result.error ?? '').includes('Account already exists'))
      toastError('Uh oh! Something went wrong.', result.error || 'Failed to sign up. Please try again.');
    setBusy(false);
  }

  return (
    <AuthCard title="Create your account" subtitle="Start your journey to meaningful connections">
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="space-y-4">
        <div className="grid grid-cols-2 gap-3">
          <div>
            <label htmlFor="signup-firstName" className="mb-1 block text-sm font-medium">
              First name
            </label>
            <input
              id="signup-firstName"
              autoComplete="given-name"
              className="input"
              {...field('firstName')}
            />
            <FieldError id="signup-firstName-error" message={errors.firstName} />
          </div>
          <div>
            <label htmlFor="signup-lastName" className="mb-1 block text-sm font-medium">
              Last name
            </label>
            <input id="signup-lastName" autoComplete="family-name" className="input" {...field('lastName')} />
            <FieldError id="signup-lastName-error" message={errors.lastName} />
          </div>
        </div>
        <div>
          <label htmlFor="signup-email" className="mb-1 block text-sm font-medium">
            Email
          </label>
          <input id="signup-email" type="email" autoComplete="email" className="input" {...field('email')} />
          <FieldError id="signup-email-error" message={errors.email} />
        </div>
        <div>
          <label htmlFor="signup-password" className="mb-1 block text-sm font-medium">
            Password
          </label>
          <div className="relative">
            <input
              id="signup-password"
              type={showPassword ? 'text' : 'password'}
              autoComplete="new-password"
              className="input pr-16"
              {...field('password')}
            />
            <button
              type="button"
              className="absolute inset-y-0 right-1 my-1 rounded px-2 text-sm text-muted hover:text-fg"
              aria-label={showPassword ? 'Hide password' : 'Show password'}
              aria-pressed={showPassword}
              onClick={() => setShowPassword((v) => !v)}
            >
              {showPassword ? 'Hide' : 'Show'}
            </button>
          </div>
          <FieldError id="signup-password-error" message={errors.password} />
          {form.password && (
            <div className="mt-2" data-testid="password-strength" data-strength={strength}>
              <div className="h-2 w-full overflow-hidden rounded bg-subtle">
                <div className={`h-full ${BAR[strength].width} ${BAR[strength].colour} transition-all`} />
              </div>
              <p className="mt-1 text-xs text-muted" aria-live="polite">
                Strength: {BAR[strength].label}. {feedback.message}
              </p>
            </div>
          )}
        </div>
        <p className="text-xs text-muted">
          By creating an account you agree to our{' '}
          <Link to="/terms" className="link">
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link to="/privacy" className="link">
            Privacy Policy
          </Link>
          .
        </p>
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? 'Creating account...' : 'Create Account'}
        </button>
      </form>
      <p className="mt-6 text-center text-sm">
        Already have an account?{' '}
        <Link to="/login" className="link">
          Sign In
        </Link>
      </p>
    </AuthCard>
  );
}
