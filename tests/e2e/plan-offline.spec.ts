// The member's plan has one derivation, read from the replica (issue 12): a premium member is shown
// "Premium Member", no upgrade prompt and no premium markers, on the sidebar and the dashboard alike, and
// still after an offline start, until the paid period ends.
import { acceptNecessaryCookies, expect, makeEmail, signUpAndConfirm } from './support/accounts.ts';
import { makeReadyForOffline } from './support/offline.ts';
import { getMemberId, getServiceAuth, grantPlan } from './support/service-role.ts';
import { test } from './support/test.ts';

/** The backend's API paths: while "offline" the context refuses them too (see offline-replica.spec.ts). */
const API_ROUTE = /\/(?:auth\/v1|rest\/v1|storage\/v1|functions\/v1|sync|realtime\/v1)\//;

test('a premium member is shown as premium everywhere, and still offline', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await acceptNecessaryCookies(page);
  const email = makeEmail('premium');
  await signUpAndConfirm(page, request, email);
  const auth = await getServiceAuth(request, baseURL!);
  const id = await getMemberId(request, auth, email);
  // A paid plan with a payment-provider customer, as the payment webhook records it.
  await grantPlan(request, auth, id, 'premium');

  const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
  const expectPremium = async () => {
    await expect(sidebar.getByText('Premium Member')).toBeVisible({ timeout: 30_000 });
    await expect(sidebar.getByText('Free Member')).toHaveCount(0);
    await expect(sidebar.getByRole('link', { name: 'Upgrade Now' })).toHaveCount(0);
    await expect(sidebar.getByRole('link', { name: /Messages/ })).not.toContainText('premium');
    await expect(page.getByText(/^Premium plan, active until /)).toBeVisible();
  };
  await page.goto('/dashboard');
  await expectPremium();

  await makeReadyForOffline(page, () => expect(sidebar.getByText('Premium Member')).toBeVisible());
  await context.route(API_ROUTE, (route) => route.abort('internetdisconnected'));
  await context.setOffline(true);
  await page.reload();
  await expectPremium();
});
