// The Wingman at high autonomy (issue 17): a Connector member gives her agent high autonomy and a threshold of
// 70; the server's job likes a new member at 70% and leaves one below it alone; on the match it sends the
// agent's first message, labelled "Written with AI help" in the thread and marked in the message's metadata;
// the activity log shows both with their reasons; the pause switch stops the next like, and resuming brings it.
import { acceptNecessaryCookies, expect, makeEmail, signUpAndConfirm } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import {
  createAccount,
  getMemberId,
  getServiceAuth,
  serviceGet,
  serviceWrite,
  setProfile,
} from './support/service-role.ts';
import { test } from './support/test.ts';

test.describe.configure({ timeout: 180_000 });

// Same interests and goal, no answers: exactly 70% compatible (0008's score); other interests: under 70%.
const SHARED = { interests: ['hiking', 'jazz', 'cooking'], relationship_goals: 'long-term' };
const LONDON = { city: 'London', country: 'United Kingdom', location_lat: 51.5, location_lng: -0.1 };

test('a high-autonomy agent likes at its threshold, writes its first message labelled as AI, and pauses', async ({
  page,
  request,
  baseURL,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await acceptNecessaryCookies(page);
  const auth = await getServiceAuth(request, baseURL!);
  const email = makeEmail('wingman');
  await signUpAndConfirm(page, request, email);
  const ada = await getMemberId(request, auth, email);
  await setProfile(request, auth, ada, {
    name: 'Ada Example',
    birthday: '1992-04-04',
    gender: 'woman',
    looking_for: ['man'],
    ...SHARED,
    ...LONDON,
  });
  await serviceWrite(request, auth, 'post', '/rest/v1/subscriptions', {
    user_id: ada,
    plan_id: 'connector',
    billing_cycle: 'monthly',
    status: 'active',
    current_period_end: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    stripe_customer_id: 'cus_wingman_test',
  });

  // Her agent: high autonomy, threshold 70, her own first message.
  await page.goto('/agent-settings');
  await expect(page.getByText('Your plan allows 2 agents with advanced autonomy.')).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'New agent' }).click();
  const form = page.getByRole('form', { name: 'Edit New Agent' });
  await form.getByLabel('Name').fill('Cupid');
  await form.getByLabel('Autonomy').selectOption('high');
  await form.getByLabel('Auto-match threshold (0-100)').fill('70');
  await form.getByLabel('First message').fill('Hi Ben! A fellow hiker and jazz fan, it seems.');
  await form.getByRole('button', { name: 'Save agent' }).click();
  await expect(page.getByText('Agent updated successfully')).toBeVisible();
  const panel = page.getByRole('region', { name: 'What your Wingman does' });
  await expect(panel).toContainText('likes people at or above its match threshold');
  await expect(page.getByRole('switch', { name: 'Pause Wingman' })).toHaveAttribute('aria-checked', 'true');
  await expect
    .poll(
      async () =>
        serviceGet(
          request,
          auth,
          `/rest/v1/ai_agents?select=autonomy_level,auto_match_threshold&user_id=eq.${ada}`,
        ),
      { timeout: 30_000 },
    )
    .toEqual([{ autonomy_level: 'high', auto_match_threshold: 70 }]);

  // Two new members: Ben shares everything (70%), Cal shares nothing.
  const ben = await createAccount(request, auth, 'ben');
  await setProfile(request, auth, ben, {
    name: 'Ben Example',
    birthday: '1990-02-02',
    gender: 'man',
    looking_for: ['woman'],
    ...SHARED,
    ...LONDON,
  });
  const cal = await createAccount(request, auth, 'cal');
  await setProfile(request, auth, cal, {
    name: 'Cal Example',
    birthday: '1990-03-03',
    gender: 'man',
    looking_for: ['woman'],
    interests: ['chess'],
    relationship_goals: 'casual',
    ...LONDON,
  });
  const likesOf = (target: string) =>
    serviceGet<unknown[]>(
      request,
      auth,
      `/rest/v1/user_interactions?select=id&user_id=eq.${ada}&target_id=eq.${target}&interaction_type=eq.like`,
    ).then((r) => r.length);
  await expect.poll(() => likesOf(ben), { timeout: 60_000 }).toBe(1);
  const log = page.getByRole('list', { name: 'Wingman activity' });
  await expect(log.getByTestId('wingman-activity').filter({ hasText: 'Liked Ben' })).toContainText(
    '70% compatible, at or above your threshold of 70%',
    { timeout: 30_000 },
  );
  expect(await likesOf(cal)).toBe(0);
  await expectNoSeriousA11yViolations(page);

  // Ben likes her back: the match, then the agent's first message, marked for machines and labelled for people.
  await serviceWrite(request, auth, 'post', '/rest/v1/user_interactions', {
    user_id: ben,
    target_id: ada,
    interaction_type: 'like',
  });
  await expect(
    log.getByTestId('wingman-activity').filter({ hasText: 'Sent the first message to Ben' }),
  ).toBeVisible({
    timeout: 60_000,
  });
  const sent = await serviceGet<{ content: string; metadata: unknown }[]>(
    request,
    auth,
    `/rest/v1/messages?select=content,metadata&sender_id=eq.${ada}&recipient_id=eq.${ben}`,
  );
  expect(sent).toEqual([
    {
      content: 'Hi Ben! A fellow hiker and jazz fan, it seems.',
      metadata: {
        ai: { generated: true, by: 'agent', agent_name: 'Cupid', disclosure: 'written with AI help' },
      },
    },
  ]);
  // A like that made a match cannot be undone from the log.
  await expect(
    log
      .getByTestId('wingman-activity')
      .filter({ hasText: 'Liked Ben' })
      .getByRole('button', { name: /^Undo/ }),
  ).toHaveCount(0);

  await page.goto('/messages');
  await page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /Ben/ }).click();
  const bubble = page
    .getByRole('list', { name: 'Messages' })
    .locator('[data-message-id]')
    .filter({ hasText: 'A fellow hiker' });
  await expect(bubble.getByTestId('ai-label')).toHaveText('Written with AI help');
  await expectNoSeriousA11yViolations(page);

  // Paused, the Wingman leaves a new compatible member alone; resumed, it likes them.
  await page.goto('/agent-settings');
  await page.getByRole('switch', { name: 'Pause Wingman' }).click();
  await expect(page.getByRole('switch', { name: 'Resume Wingman' })).toHaveAttribute('aria-checked', 'false');
  await expect(panel).toContainText('Paused: your agents take no action until you resume.');
  await expect
    .poll(() => serviceGet(request, auth, `/rest/v1/wingman_settings?select=paused&id=eq.${ada}`), {
      timeout: 30_000,
    })
    .toEqual([{ paused: true }]);
  const dan = await createAccount(request, auth, 'dan');
  await setProfile(request, auth, dan, {
    name: 'Dan Example',
    birthday: '1991-02-02',
    gender: 'man',
    looking_for: ['woman'],
    ...SHARED,
    ...LONDON,
  });
  // Several job intervals (2 s in journeys) pass with no like.
  await page.waitForTimeout(7_000);
  expect(await likesOf(dan)).toBe(0);
  await page.getByRole('switch', { name: 'Resume Wingman' }).click();
  await expect.poll(() => likesOf(dan), { timeout: 60_000 }).toBe(1);
  await expect(log.getByTestId('wingman-activity').filter({ hasText: 'Liked Dan' })).toBeVisible({
    timeout: 30_000,
  });

  // The undo of a like that made no match.
  await log
    .getByTestId('wingman-activity')
    .filter({ hasText: 'Liked Dan' })
    .getByRole('button', { name: 'Undo like of Dan' })
    .click();
  await expect(page.getByText("Your agent's like of Dan is withdrawn.")).toBeVisible();
  await expect.poll(() => likesOf(dan)).toBe(0);
  await expect(log.getByTestId('wingman-activity').filter({ hasText: 'Liked Dan' })).toContainText(
    '(undone)',
    {
      timeout: 30_000,
    },
  );

  // At desktop size the panel keeps its controls in view.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('switch', { name: 'Pause Wingman' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
