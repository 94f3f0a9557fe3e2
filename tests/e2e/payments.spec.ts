// Paying for a plan (issue 15) on a demo instance without Stripe: a free member opens the pricing page, picks
// Connector yearly, pays in the clearly labelled demo checkout, and /payment-success confirms the plan once
// the server recorded it (read from the replica, not the URL): "Premium Member", no premium markers, the
// plan marked on the pricing page. At phone and desktop sizes, with no serious accessibility violation.
import { acceptNecessaryCookies, expect, makeEmail, signUpAndConfirm } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { test } from './support/test.ts';

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`a free member upgrades through the demo checkout (${viewport.width}x${viewport.height})`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize(viewport);
    await acceptNecessaryCookies(page);
    await signUpAndConfirm(page, request, makeEmail('upgrade'));

    await page.goto('/pricing');
    await expect(page.getByRole('heading', { level: 1, name: 'Pricing' })).toBeVisible();
    await expect(page.getByTestId('plan-free').getByText('Your current plan')).toBeVisible({
      timeout: 30_000,
    });
    await page.getByText('Yearly', { exact: true }).click();
    const connector = page.getByTestId('plan-connector');
    await expect(connector).toContainText('$199.99');
    await expect(connector).toContainText('2 AI agents with advanced autonomy');
    await expectNoSeriousA11yViolations(page);
    await connector.getByRole('button', { name: 'Choose Connector' }).click();

    await expect(page).toHaveURL(/\/checkout\?plan=connector&cycle=yearly$/);
    await expect(page.getByTestId('demo-payment-notice')).toContainText('Demo payment: no money moves.');
    const pay = page.getByRole('button', { name: 'Pay $199.99 (demo)' });
    await expect(pay).toBeInViewport();
    await expectNoSeriousA11yViolations(page);
    await pay.click();

    await expect(page).toHaveURL(/\/payment-success/);
    await expect(page.getByText('Your Connector subscription has been activated.').first()).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByText('Subscription Updated')).toBeVisible();

    // The plan everywhere: the pricing page marks it, and on a desktop the sidebar says so with no markers.
    await page.goto('/pricing');
    await expect(page.getByTestId('plan-connector').getByText('Your current plan')).toBeVisible({
      timeout: 30_000,
    });
    await page.goto('/manage-subscription');
    await expect(page.getByTestId('current-plan')).toHaveText('Your plan: Connector', { timeout: 30_000 });
    // What the plan unlocks, the second agent slot included; a demo payment leaves no card and no portal.
    const includes = page.getByRole('list', { name: 'Your plan includes' });
    await expect(includes).toContainText('Unlimited likes and matches');
    await expect(includes).toContainText('2 AI agents with advanced autonomy');
    await expect(page.getByTestId('plan-without-billing')).toContainText(
      'This plan needs no payment details',
    );
    await expect(page.getByRole('button', { name: 'Open billing portal' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    if (viewport.width >= 768) {
      const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
      await expect(sidebar.getByText('Premium Member')).toBeVisible();
      await expect(sidebar.getByText('(premium)')).toHaveCount(0);
      await expect(sidebar.getByRole('link', { name: 'Upgrade Now' })).toHaveCount(0);
    }
  });
}

test('a visitor sees the plans and is asked to sign in to choose one', async ({ page }) => {
  await acceptNecessaryCookies(page);
  await page.goto('/pricing');
  await expect(page.getByTestId('plan-vip')).toContainText('5 AI agents with advanced autonomy');
  await page.getByTestId('plan-premium').getByRole('button', { name: 'Choose Premium' }).click();
  await expect(page).toHaveURL(/\/login$/);
});
