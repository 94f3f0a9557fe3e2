// The AI Wingman's settings (issue 17, first part): a free member creates the one agent their plan allows
// (autonomy low), edits it and meets the limit's text on a second; on Connector the member has two, switches
// the active one and deletes it, and the one left becomes active on the next visit; at phone and desktop
// sizes, with no serious accessibility violation; "test your agent" answers as the agent.
import { acceptNecessaryCookies, expect, makeEmail, signUpAndConfirm } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { getMemberId, getServiceAuth, grantPlan } from './support/service-role.ts';
import { test } from './support/test.ts';

test.describe.configure({ timeout: 120_000 });

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`a free member has one agent, a Connector member two (${viewport.width}x${viewport.height})`, async ({
    page,
    request,
    baseURL,
  }) => {
    await page.setViewportSize(viewport);
    await acceptNecessaryCookies(page);
    const email = makeEmail('agents');
    await signUpAndConfirm(page, request, email);
    await page.goto('/agent-settings');
    await expect(page.getByRole('heading', { level: 1, name: 'AI Wingman' })).toBeVisible();
    await expect(page.getByText('No agents yet')).toBeVisible({ timeout: 30_000 });
    const create = page.getByRole('button', { name: 'New agent' });
    await expect(create).toBeInViewport();
    await expectNoSeriousA11yViolations(page);

    await create.click();
    await expect(
      page.getByText('Basic AI agent created! Upgrade for advanced autonomous features.'),
    ).toBeVisible();
    const agents = page.getByTestId('agent');
    await expect(agents).toHaveCount(1);
    await expect(agents.first()).toContainText('New Agent');
    await expect(agents.first()).toContainText('Active');
    await expect(agents.first()).toContainText('Autonomy: Low: suggestions only');

    // The form opens for the new agent: rename it and give it a style.
    const form = page.getByRole('form', { name: 'Edit New Agent' });
    await expect(form).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await form.getByLabel('Name').fill('Cupid');
    await form.getByLabel('Communication style').selectOption('friendly');
    await form.getByLabel('Interests (comma-separated)').fill('hiking, jazz');
    await form.getByRole('button', { name: 'Save agent' }).click();
    await expect(page.getByText('Agent updated successfully')).toBeVisible();
    await expect(agents.first()).toContainText('Cupid');

    // A second agent is beyond the free plan.
    await create.click();
    await expect(
      page.getByText('Free users can create 1 AI agent. Upgrade to create more advanced agents.'),
    ).toBeVisible();
    await expect(agents).toHaveCount(1);

    // Test your agent: asked here, it answers as Cupid (the built-in coach, no model in journeys), labelled.
    await agents.first().getByRole('button', { name: 'Edit Cupid' }).click();
    const preview = page.getByRole('region', { name: 'Test Cupid' });
    await preview.getByLabel('Ask Cupid something').fill('How should I start a chat?');
    await preview.getByRole('button', { name: 'Ask' }).click();
    const reply = preview.getByTestId('agent-preview-answer');
    await expect(reply).toContainText('Cupid (AI) · Built-in coach', { timeout: 30_000 });
    await expect(reply).not.toContainText('Writing...');
    await expectNoSeriousA11yViolations(page);

    // The edit reached the server.
    const auth = await getServiceAuth(request, baseURL!);
    const me = await getMemberId(request, auth, email);
    await expect
      .poll(async () => {
        const res = await request.get(
          `/rest/v1/ai_agents?select=name,interests,autonomy_level&user_id=eq.${me}`,
          {
            headers: { apikey: auth.anonKey, authorization: `Bearer ${auth.token}` },
          },
        );
        return res.json();
      })
      .toEqual([{ name: 'Cupid', interests: ['hiking', 'jazz'], autonomy_level: 'low' }]);

    // On Connector: two agents; the second can be made active, and deleted.
    await grantPlan(request, auth, me, 'connector');
    await expect(page.getByText('Your plan allows 2 agents with advanced autonomy.')).toBeVisible({
      timeout: 30_000,
    });
    await create.click();
    await expect(page.getByText('AI agent created successfully')).toBeVisible();
    await expect(agents).toHaveCount(2);
    const second = agents.filter({ hasText: 'New Agent' });
    await second.getByRole('button', { name: 'Make active' }).click();
    await expect(page.getByText('Active agent updated')).toBeVisible();
    await expect(second).toContainText('Active');
    await expect(
      agents.filter({ hasText: 'Cupid' }).getByRole('button', { name: 'Make active' }),
    ).toBeVisible();

    await second.getByRole('button', { name: /^Delete/ }).click();
    // Asked in the app's own dialog; Cancel keeps the agent.
    const confirm = page.getByRole('alertdialog', { name: /^Delete / });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(agents).toHaveCount(2);
    await second.getByRole('button', { name: /^Delete/ }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(page.getByText('Agent deleted successfully')).toBeVisible();
    await expect(agents).toHaveCount(1);
    // The active one is gone: on the next visit the newest left becomes active, and the member is told.
    await page.reload();
    await expect(page.getByText('Cupid has been set as your active agent')).toBeVisible({ timeout: 30_000 });
    await expect(agents.first()).toContainText('Active');
  });
}
