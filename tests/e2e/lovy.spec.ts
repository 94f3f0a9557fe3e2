// Lovy (issue 16) on an instance with no language model, so the built-in coach answers: the welcome bubble
// once, the panel from the header, a suggestion on /find-matches answered after the member sets Lovy up,
// labelled, the history after a reload, a question asked offline kept as waiting and answered back online,
// Escape closing the panel; at phone and desktop sizes, with no serious accessibility violation.
import { acceptNecessaryCookies, expect, makeEmail, signUpAndConfirm } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { test } from './support/test.ts';

/** The backend's API paths: while "offline" the context refuses them too (see offline-replica.spec.ts). */
const API_ROUTE = /\/(?:auth\/v1|rest\/v1|storage\/v1|functions\/v1|sync|realtime\/v1)\//;

test.describe.configure({ timeout: 120_000 });

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`a member asks Lovy, reads the history again and asks offline (${viewport.width}x${viewport.height})`, async ({
    page,
    context,
    request,
  }) => {
    await page.setViewportSize(viewport);
    await acceptNecessaryCookies(page);
    await signUpAndConfirm(page, request, makeEmail('lovy'));

    // The welcome bubble, once.
    const welcome = page.getByRole('status').filter({ hasText: "Hi, I'm Lovy" });
    await expect(welcome).toBeVisible();
    await expect(welcome).toBeHidden({ timeout: 10_000 });
    await page.goto('/find-matches');
    const launcher = page.getByRole('button', { name: 'Lovy', exact: true });
    await expect(launcher).toBeVisible();
    await expect(welcome).toHaveCount(0);

    await launcher.click();
    const panel = page.getByRole('dialog', { name: 'Lovy' });
    await expect(panel).toBeVisible();
    const chat = panel.getByRole('log', { name: 'Lovy chat' });
    const suggestion = panel.getByRole('button', { name: 'How can I improve my bio?' });
    await expect(suggestion).toBeInViewport();
    await expectNoSeriousA11yViolations(page);
    await suggestion.click();
    await expect(chat.getByText('How can I improve my bio?')).toBeVisible();

    // A new member has no assistant yet: Lovy says so and offers to set one up; then the question is answered.
    await expect(chat.getByText('No AI agent available')).toBeVisible({ timeout: 30_000 });
    await chat.getByRole('button', { name: 'Set up Lovy' }).click();
    const answer = chat.locator('[data-lovy-role="assistant"]').first();
    await expect(answer).toContainText("Lovy's built-in coach", { timeout: 30_000 });
    await expect(answer).toContainText('Your bio is empty');
    await expect(answer).toContainText('Built-in coach');

    // The history reads again after a reload, from the device.
    await page.reload();
    await page.getByRole('button', { name: 'Lovy', exact: true }).click();
    await expect(chat.locator('[data-lovy-role="assistant"]')).toHaveCount(1, { timeout: 30_000 });
    await expect(chat.getByText('How can I improve my bio?')).toBeVisible();

    // Offline: the question is kept and waits; back online it is answered.
    await context.route(API_ROUTE, (route) => route.abort('internetdisconnected'));
    await context.setOffline(true);
    const input = panel.getByLabel('Message Lovy');
    await input.fill('Is it safe to meet up on a first date?');
    await input.press('Enter');
    await expect(input).toHaveValue('');
    await expect(chat.getByText('Is it safe to meet up on a first date?')).toBeVisible();
    await expect(chat.getByTestId('lovy-waiting')).toContainText('Waiting for the network');
    await context.unroute(API_ROUTE);
    await context.setOffline(false);
    await expect(chat.locator('[data-lovy-role="assistant"]')).toHaveCount(2, { timeout: 60_000 });
    await expect(chat.locator('[data-lovy-role="assistant"]').last()).toContainText('Never send money');

    // Whitespace is never sent; Escape closes the panel.
    await input.fill('   ');
    await expect(panel.getByRole('button', { name: 'Send to Lovy' })).toBeDisabled();
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
  });
}
