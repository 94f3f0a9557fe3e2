// Helpers for account journeys: unique addresses, links from the server's outbox, a confirmed member ready to sign in.
import { expect as baseExpect, type APIRequestContext, type Page } from '@playwright/test';

// The member area opens a local database (wa-sqlite) first; on a busy shared machine that takes seconds.
export const expect = baseExpect.configure({ timeout: 15_000 });

export const PASSWORD = 'Str0ng!Passw0rd';

export function makeEmail(tag: string): string {
  return `${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
}

interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

/** Waits for the newest mail to `to` whose link contains `type=...` and returns that link. */
export async function getMailedLink(
  request: APIRequestContext,
  to: string,
  type: 'signup' | 'recovery',
  after = 0,
): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/_outbox/messages.json');
        const messages = (await res.json()) as OutboxMessage[];
        for (const m of messages) {
          if (m.to.toLowerCase() !== to.toLowerCase() || Date.parse(m.created_at) < after) continue;
          const found = [...m.text.matchAll(/https?:\/\/\S+/g)]
            .map((x) => x[0])
            .find((l) => l.includes(`type=${type}`));
          if (found) {
            link = found;
            return true;
          }
        }
        return false;
      },
      { timeout: 15_000, message: `a ${type} mail to ${to}` },
    )
    .toBe(true);
  return link as string;
}

/** Signs up through the UI and follows the confirmation link; leaves the page signed in. */
export async function signUpAndConfirm(page: Page, request: APIRequestContext, email: string): Promise<void> {
  await page.goto('/signup');
  await page.getByLabel('First name').fill('Test');
  await page.getByLabel('Last name').fill('Member');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/email-confirmation-pending$/);
  const link = await getMailedLink(request, email, 'signup');
  await page.goto(link);
  await expect(page).toHaveURL(/\/profile-builder$/);
}

export async function signIn(page: Page, email: string, options: { remember?: boolean } = {}): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  if (options.remember === false) await page.getByLabel('Remember me').uncheck();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

/** Stores a consent record so the banner does not cover the page (of one page, or of every page of a context). */
export async function acceptNecessaryCookies(page: Pick<Page, 'addInitScript'>): Promise<void> {
  await page.addInitScript(() => {
    localStorage.setItem(
      'cookieConsent',
      JSON.stringify({
        consented: true,
        necessary: true,
        analytics: false,
        marketing: false,
        date: new Date().toISOString(),
      }),
    );
  });
}
