// Account journeys in the browser: sign up and confirm from the outbox, sign in and out, remember me, forgot and reset, guards.
import { test } from './support/test.ts';
import {
  expect,
  PASSWORD,
  acceptNecessaryCookies,
  getMailedLink,
  makeEmail,
  signIn,
  signUpAndConfirm,
} from './support/accounts.ts';

test.beforeEach(async ({ page }) => {
  await acceptNecessaryCookies(page);
});

test('a visitor signs up, confirms from the outbox, signs out and signs in again', async ({
  page,
  request,
}) => {
  const email = makeEmail('journey');
  await page.goto('/signup');
  // Validation messages of the spec before anything is sent.
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText('First name must be at least 2 characters.')).toBeVisible();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await expect(page.getByText('Password must be at least 8 characters.')).toBeVisible();

  await page.getByLabel('Password', { exact: true }).fill('abc');
  await expect(page.getByTestId('password-strength')).toHaveAttribute('data-strength', 'weak');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await expect(page.getByTestId('password-strength')).toHaveAttribute('data-strength', 'strong');
  // A fixed field loses its error at once; the password can be shown and hidden again.
  await expect(page.getByText('Password must be at least 8 characters.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'password');

  await page.getByLabel('First name').fill('Test');
  await expect(page.getByText('First name must be at least 2 characters.')).toHaveCount(0);
  await page.getByLabel('Last name').fill('Member');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(
    page.getByText('Account created! Please check your email to verify your account.'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/email-confirmation-pending$/);
  await expect(page.getByTestId('pending-email')).toHaveText(email);
  expect(await page.evaluate(() => sessionStorage.getItem('pendingEmailConfirmation'))).toBe('true');

  // Signing in before confirming is refused with the catalogue's message.
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Please verify your email before logging in' }).first(),
  ).toBeVisible();

  const link = await getMailedLink(request, email, 'signup');
  await page.goto(link);
  await expect(page).toHaveURL(/\/profile-builder$/);
  expect(await page.evaluate(() => sessionStorage.getItem('pendingEmailConfirmation'))).toBeNull();

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  // The sidebar's sign-out toast is worded by the members-area spec; here only the outcome matters.
  await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();
  // The confirmation link opened again says it was used, and how to go on.
  await page.goto(link);
  await expect(
    page.getByRole('heading', { name: 'This link was already used or has expired' }),
  ).toBeVisible();
  await expect(
    page.getByText('If you already confirmed your e-mail with it, you can sign in now.'),
  ).toBeVisible();

  // Wrong password, then the right one with the default target /.
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Wrong!Passw0rd');
  await page.getByRole('button', { name: 'Sign In' }).click();
  // Said once.
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password' })).toHaveCount(1);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Login successful!')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('link', { name: 'Dashboard' })).toBeVisible();

  // Signing up again with the same address says the account exists.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/signup');
  await page.getByLabel('First name').fill('Test');
  await page.getByLabel('Last name').fill('Again');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(
    page.getByText('An account with this email already exists. Try logging in instead.'),
  ).toBeVisible();
});

test('remember me unchecked keeps the session to this tab only', async ({ page, request, browser }) => {
  const email = makeEmail('remember');
  await signUpAndConfirm(page, request, email);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);

  await signIn(page, email, { remember: false });
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account', exact: true })).toBeVisible();
  // A reload in the same tab keeps the session.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Account', exact: true })).toBeVisible();
  // A new tab starts without one.
  const other = await page.context().newPage();
  await other.goto('/account');
  await expect(other).toHaveURL(/\/login$/);
  await other.close();

  // Checked (the default): a new tab is signed in too. The sign-out is over once the page is at / (leaving
  // before the server's answer would keep the session in this tab and the sign-in page would send it on).
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await signIn(page, email);
  const second = await page.context().newPage();
  await second.goto('/account');
  await expect(second.getByRole('heading', { name: 'Account', exact: true })).toBeVisible();
  await second.close();
  // A fresh browser context never shares it.
  const ctx = await browser.newContext();
  const fresh = await ctx.newPage();
  await fresh.goto('/account');
  await expect(fresh).toHaveURL(/\/login$/);
  await ctx.close();
});

test('forgot and reset password', async ({ page, request }) => {
  const email = makeEmail('reset');
  await signUpAndConfirm(page, request, email);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/forgot-password');
  const asked = Date.now() - 1000;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Password reset email sent')).toBeVisible();
  const link = await getMailedLink(request, email, 'recovery', asked);
  await page.goto(link);
  await expect(page).toHaveURL(/\/reset-password/);
  await page.getByLabel('New password', { exact: true }).fill('weakpassword');
  await page.getByLabel('Confirm new password').fill('weakpassword');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Password should include at least one number').first()).toBeVisible();
  const next = 'N3w!Passw0rd-x';
  await page.getByLabel('New password', { exact: true }).fill(next);
  await page.getByLabel('Confirm new password').fill(next);
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Your password has been reset successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(next);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Login successful!')).toBeVisible();
});

test('guards and redirects for a visitor and a member', async ({ page, request }) => {
  for (const path of [
    '/find-matches',
    '/messages',
    '/account',
    '/articles/first-dates',
    '/profile-builder',
    '/checkout',
  ]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/login$/);
  }
  await page.goto('/home');
  await expect(page).toHaveURL(/\/login$/);

  // redirectTo: after signing in from a guarded page the member lands on it.
  const email = makeEmail('guards');
  await signUpAndConfirm(page, request, email);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/messages');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/messages$/);
  await expect(page.getByRole('heading', { name: 'Messages' })).toBeVisible();

  await page.goto('/login');
  await expect(page).toHaveURL(/\/find-matches$/);
  await page.goto('/forgot-password');
  await expect(page).toHaveURL(/\/find-matches$/);
  await page.goto('/home');
  await expect(page).toHaveURL(/\/profile-builder$/);
});
