// Account actions against supabase auth, with the toasts and messages of the error catalogue (spec §8).
import { getSupabase, setRememberMe } from '../../data/supabase-client.ts';
import { getSignupName } from '../../domain/signup-validation.ts';
import { clearPendingConfirmation, setPendingConfirmation } from '../../session/pending-confirmation.ts';
import { signOutAsked } from '../../session/sign-out.ts';
import { toastError, toastSuccess } from '../../ui/toast-store.ts';

export interface ActionResult {
  ok: boolean;
  /** Message for the screen's error box. */
  error?: string;
}

/** The login failure description for a supabase error. */
export function getLoginErrorMessage(error: { message?: string; code?: string; status?: number }): string {
  const msg = error.message ?? '';
  if (error.code === 'email_not_confirmed' || /email not confirmed/i.test(msg))
    return 'Please verify your email before logging in';
  if (error.status === 429 || /too many|rate limit/i.test(msg))
    return 'Too many login attempts. Please try again later';
  return 'Invalid email or password';
}

export async function signIn(email: string, password: string, remember: boolean): Promise<ActionResult> {
  try {
    setRememberMe(remember);
    const sb = await getSupabase();
    const { data, error } = await sb.auth.signInWithPassword({ email: email.trim(), password });
    if (error) {
      const message = getLoginErrorMessage(error);
      toastError('Login failed', message);
      return { ok: false, error: message };
    }
    const name = (data.user?.user_metadata?.['name'] as string | undefined)?.split(' ')[0];
    toastSuccess('Login successful!', name ? `Welcome back, ${name}!` : 'Welcome back!');
    return { ok: true };
  } catch {
    const message = 'Failed to log in. Please check your credentials.';
    toastError('Login failed', message);
    return { ok: false, error: message };
  }
}

export interface SignupResult extends ActionResult {
  alreadyExists?: boolean;
}

export async function signUp(input: {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}): Promise<SignupResult> {
  const email = input.email.trim();
  setPendingConfirmation(email);
  try {
    const sb = await getSupabase();
    const { data, error } = await sb.auth.signUp({
      email,
      password: input.password,
      options: {
        data: { name: getSignupName(input.firstName, input.lastName) },
        emailRedirectTo: `${window.location.origin}/auth/callback?type=signup`,
      },
    });
    if (error) {
      clearPendingConfirmation();
      const msg = error.message || 'There was an error creating your account';
      const description = /already registered|already exists/i.test(msg)
        ? 'This email is already registered'
        : msg;
      toastError('Signup failed', description);
      return { ok: false, error: description };
    }
    if (data.user && (data.user.identities?.length ?? 0) === 0) {
      clearPendingConfirmation();
      toastError(
        'Account already exists',
        'An account with this email already exists. Try logging in instead.',
      );
      return { ok: false, alreadyExists: true, error: 'Account already exists' };
    }
    toastSuccess('Account created! Please check your email to verify your account.');
    return { ok: true };
  } catch {
    clearPendingConfirmation();
    toastError('Uh oh! Something went wrong.', 'Failed to sign up. Please try again.');
    return { ok: false, error: 'Failed to sign up. Please try again.' };
  }
}

/**
 * Ends every session of the account, on every device (the account page's "Log out of all devices"),
 * with the accounts spec's 'Logged out' texts. Returns whether it worked.
 */
export async function signOutEverywhere(): Promise<boolean> {
  try {
    const { error } = await signOutAsked('global');
    if (error) throw error;
    toastSuccess('Logged out');
    return true;
  } catch {
    toastError('Failed to log out. Please try again.');
    return false;
  }
}

export async function requestPasswordReset(email: string): Promise<boolean> {
  try {
    const sb = await getSupabase();
    const { error } = await sb.auth.resetPasswordForEmail(email.trim(), {
      redirectTo: `${window.location.origin}/reset-password`,
    });
    if (error) throw error;
    toastSuccess('Password reset email sent');
    return true;
  } catch {
    toastError('Failed to send password reset email. Please try again.');
    return false;
  }
}

export async function updatePassword(password: string): Promise<boolean> {
  try {
    const sb = await getSupabase();
    const { error } = await sb.auth.updateUser({ password });
    if (error) throw error;
    toastSuccess('Password updated', 'Your password has been reset successfully');
    return true;
  } catch {
    toastError('Failed to update password. Please try again.');
    return false;
  }
}
