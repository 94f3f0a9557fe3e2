// Payments in whole journeys (issue 15): a free member stopped by the daily like limit follows "Upgrade Now",
// pays in the demo checkout and likes again without a limit; the operator's `npm run admin` grant and revoke
// reach the member's sidebar within seconds through the replica, and the billing portal is offered only
// when a payment provider holds the plan.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test } from './support/test.ts';
import { countLocalInteractions, exposeReplica } from './support/local-replica.ts';
import { acceptNecessaryCookies, expect, makeEmail, signUpAndConfirm } from './support/accounts.ts';
import {
  countServerLikes,
  createAccount,
  getMemberId,
  getServiceAuth,
  seedLikes,
  serviceHeaders,
  setProfile,
} from './support/service-role.ts';

test.describe.configure({ timeout: 180_000 });

const run = promisify(execFile);
const LONDON = { city: 'London', country: 'United Kingdom', location_lat: 51.5, location_lng: -0.1 };

/** The operator's command, as the README gives it, against this run's server (its data folder and port). */
async function admin(baseURL: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'admin', '--', ...args], {
    env: {
      ...process.env,
      DATA_DIR: process.env['E2E_DATA_DIR'],
      PORT: new URL(baseURL).port,
      SUPABASE_URL: '',
      SUPABASE_SERVICE_ROLE_KEY: '',
    },
  });
  return stdout.trim();
}

test('a free member at the like limit follows Upgrade Now, pays in the demo checkout and likes again', async ({
  page,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  await acceptNecessaryCookies(page);
  await exposeReplica(page);
  const email = makeEmail('limit-upgrade');
  await signUpAndConfirm(page, request, email);
  const me = await getMemberId(request, auth, email);
  await setProfile(request, auth, me, {
    name: 'Lena Example',
    birthday: '1993-04-04',
    gender: 'woman',
    ...LONDON,
  });
  // Theo liked her; she has used today's 50 likes elsewhere.
  const theo = await createAccount(request, auth, 'theo');
  await setProfile(request, auth, theo, {
    name: 'Theo Example',
    birthday: '1991-01-01',
    gender: 'man',
    ...LONDON,
  });
  await seedLikes(request, auth, theo, [me]);
  const liked: string[] = [];
  for (let i = 0; i < 50; i++) liked.push(await createAccount(request, auth, 'liked'));
  await seedLikes(request, auth, me, liked);

  // Once this device knows the 50 likes, liking Theo back is stopped before it is written and offers the upgrade.
  await page.goto('/likes');
  const fromTheo = page.getByTestId('received-like').filter({ hasText: 'Theo' });
  await expect(fromTheo).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => countLocalInteractions(page, me), { timeout: 30_000 }).toBe(50);
  await fromTheo.getByRole('button', { name: 'Like back' }).click();
  const prompt = page.getByRole('dialog', { name: "You've used today's likes" });
  await expect(prompt).toBeVisible();
  expect(await countServerLikes(request, auth, me)).toBe(50);
  await prompt.getByRole('link', { name: 'Upgrade Now' }).click();
  await expect(prompt).toHaveCount(0);

  // The plans, then the demo checkout for Connector, monthly.
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByTestId('plan-free').getByText('Your current plan')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('plan-connector').getByRole('button', { name: 'Choose Connector' }).click();
  await expect(page.getByTestId('demo-payment-notice')).toContainText('Demo payment: no money moves.');
  await page.getByRole('button', { name: 'Pay $24.99 (demo)' }).click();
  await expect(page.getByText('Your Connector subscription has been activated.').first()).toBeVisible({
    timeout: 30_000,
  });

  // Premium everywhere the plan shows, and no limit on likes: Theo's like back goes through.
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await expect(sidebar.getByText('Premium Member')).toBeVisible();
  await expect(sidebar.getByText('(premium)')).toHaveCount(0);
  await page.goto('/likes');
  await fromTheo.getByRole('button', { name: 'Like back' }).click();
  await expect(prompt).toHaveCount(0);
  await expect.poll(() => countServerLikes(request, auth, me), { timeout: 30_000 }).toBe(51);
});

test("the operator's grant and revoke reach the member's sidebar within seconds; the portal needs a payment provider", async ({
  page,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  await acceptNecessaryCookies(page);
  const email = makeEmail('granted');
  await signUpAndConfirm(page, request, email);
  const me = await getMemberId(request, auth, email);
  await page.goto('/dashboard');
  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  await expect(sidebar.getByText('Free Member')).toBeVisible({ timeout: 30_000 });
  await expect(sidebar.getByRole('link', { name: 'Upgrade Now' })).toBeVisible();

  expect(await admin(baseURL!, 'grant', email, 'vip', '30')).toContain(email);
  await expect(sidebar.getByText('Premium Member')).toBeVisible({ timeout: 10_000 });
  await expect(sidebar.getByRole('link', { name: 'Upgrade Now' })).toHaveCount(0);
  await page.goto('/manage-subscription');
  await expect(page.getByTestId('current-plan')).toHaveText('Your plan: VIP', { timeout: 30_000 });
  await expect(page.getByRole('list', { name: 'Your plan includes' })).toContainText(
    '5 AI agents with advanced autonomy',
  );
  await expect(page.getByTestId('plan-without-billing')).toContainText('ends on');
  await expect(page.getByRole('button', { name: 'Open billing portal' })).toHaveCount(0);

  // Once a payment provider holds the plan (a customer on the server), the portal is offered.
  const res = await request.patch(`/rest/v1/subscriptions?user_id=eq.${me}`, {
    headers: serviceHeaders(auth),
    data: { stripe_customer_id: 'cus_operator_test' },
  });
  expect(res.ok(), await res.text()).toBe(true);
  await expect(page.getByRole('button', { name: 'Open billing portal' })).toBeVisible({ timeout: 10_000 });

  expect(await admin(baseURL!, 'revoke', email)).toContain(email);
  await expect(sidebar.getByText('Free Member')).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId('current-plan')).toHaveText('You are on the free plan.');

  // The plan kept on the device to paint the sidebar early leaves with the member.
  expect(await page.evaluate(() => localStorage.getItem('heartsync.subscription'))).toContain(me);
  await sidebar.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => page.evaluate(() => localStorage.getItem('heartsync.subscription'))).toBeNull();
});
