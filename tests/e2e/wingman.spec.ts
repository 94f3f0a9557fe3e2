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
  grantPlan,
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
  await grantPlan(request, auth, ada, 'connector');

  // Her agent: high autonomy, threshold 70, her own first message.
  await page.goto('/agent-settings');
  await expect(page.getByText('Your plan allows 2 agents with advanced autonomy.')).toBeVisible({
    timeout: 30_000,
  });
  // Before she has an agent there is nothing to pause or limit: only whether other agents may write to her.
  const before = page.getByRole('region', { name: 'What your Wingman does' });
  await expect(before).toContainText('You have no agent yet');
  await expect(before.getByLabel("Other members' agents may send me a first message")).toBeVisible();
  await expect(before.getByRole('switch', { name: 'Pause Wingman' })).toHaveCount(0);
  await expect(before.getByLabel('Likes a day, at most')).toHaveCount(0);
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
  // By member, not by name: an earlier run's Ben may be in the same community.
  const about = (id: string) => log.locator(`[data-testid="wingman-activity"][data-target-id="${id}"]`);
  await expect(about(ben).filter({ hasText: 'Liked Ben' })).toContainText(
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
  await expect(about(ben).filter({ hasText: 'Sent the first message to Ben' })).toBeVisible({
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
    about(ben).filter({ hasText: 'Liked Ben' }).getByRole('button', { name: /^Undo/ }),
  ).toHaveCount(0);

  await page.goto('/messages');
  // The list's preview says it too.
  await expect(
    page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /^Ben / }),
  ).toContainText('You: (AI help) Hi Ben!', { timeout: 30_000 });
  await page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: /^Ben / }).click();
  const bubble = page
    .getByRole('list', { name: 'Messages' })
    .locator('[data-message-id]')
    .filter({ hasText: 'A fellow hiker' });
  await expect(bubble.getByTestId('ai-label')).toHaveText('Written with AI help');
  await expectNoSeriousA11yViolations(page);
  // On a phone the thread has the screen to itself, and a way back to the list.
  await expect(page.getByRole('list', { name: 'Conversations' })).toBeHidden();
  await page.getByRole('button', { name: 'Back to conversations' }).click();
  await expect(page.getByRole('list', { name: 'Conversations' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Conversation with Ben' })).toHaveCount(0);

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
  await expect(about(dan).filter({ hasText: 'Liked Dan' })).toBeVisible({
    timeout: 30_000,
  });

  // The undo of a like that made no match.
  await about(dan).filter({ hasText: 'Liked Dan' }).getByRole('button', { name: 'Undo like of Dan' }).click();
  await expect(page.getByText("Your agent's like of Dan is withdrawn.")).toBeVisible();
  await expect.poll(() => likesOf(dan)).toBe(0);
  await expect(about(dan).filter({ hasText: 'Liked Dan' })).toContainText('(undone)', {
    timeout: 30_000,
  });

  // At desktop size the panel keeps its controls in view.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('switch', { name: 'Pause Wingman' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('a medium-autonomy agent drafts the first message; starters from shared interests; nothing sent without her', async ({
  page,
  request,
  baseURL,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await acceptNecessaryCookies(page);
  const auth = await getServiceAuth(request, baseURL!);
  const email = makeEmail('drafts');
  await signUpAndConfirm(page, request, email);
  const eve = await getMemberId(request, auth, email);
  await setProfile(request, auth, eve, {
    name: 'Eve Example',
    birthday: '1993-03-03',
    gender: 'woman',
    looking_for: ['man'],
    interests: ['jazz', 'hiking'],
  });
  await grantPlan(request, auth, eve, 'premium');
  await page.goto('/agent-settings');
  await expect(page.getByText('Your plan allows 1 agent.')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'New agent' }).click();
  const form = page.getByRole('form', { name: 'Edit New Agent' });
  await form.getByLabel('Name').fill('Muse');
  await form.getByLabel('Autonomy').selectOption('medium');
  await form.getByLabel('First message').fill('Hello! What is the best concert you have been to?');
  await form.getByRole('button', { name: 'Save agent' }).click();
  await expect(page.getByText('Agent updated successfully')).toBeVisible();
  await expect
    .poll(() => serviceGet(request, auth, `/rest/v1/ai_agents?select=autonomy_level&user_id=eq.${eve}`), {
      timeout: 30_000,
    })
    .toEqual([{ autonomy_level: 'medium' }]);

  // Two matches made after that: Finn and Gus.
  const match = async (name: string, interests: string[]) => {
    const id = await createAccount(request, auth, name.toLowerCase());
    await setProfile(request, auth, id, {
      name: `${name} Example`,
      birthday: '1990-01-01',
      gender: 'man',
      looking_for: ['woman'],
      interests,
    });
    for (const [from, to] of [
      [eve, id],
      [id, eve],
    ])
      await serviceWrite(request, auth, 'post', '/rest/v1/user_interactions', {
        user_id: from,
        target_id: to,
        interaction_type: 'like',
      });
    return id;
  };
  const finn = await match('Finn', ['jazz']);
  const gus = await match('Gus', ['surfing', 'jazz', 'chess']);
  const sentTo = (id: string) =>
    serviceGet<{ content: string; metadata: unknown }[]>(
      request,
      auth,
      `/rest/v1/messages?select=content,metadata&sender_id=eq.${eve}&recipient_id=eq.${id}`,
    );

  // Both matches reach her replica (their popups dismissed); from the next page load on, no popup can come.
  await page.goto('/messages');
  // New matches nobody has written to yet: the row of faces at the top of the list.
  const conversations = page.getByRole('list', { name: 'New matches' });
  await expect(async () => {
    const popup = page.getByRole('dialog').filter({ hasText: "It's a Match!" });
    if (await popup.isVisible()) await popup.getByRole('button', { name: 'Keep Swiping' }).click();
    await expect(conversations.getByRole('button', { name: /Finn/ })).toBeVisible({ timeout: 1_000 });
    await expect(conversations.getByRole('button', { name: /Gus/ })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  const open = async (name: string) => {
    await page.goto('/messages');
    await page
      .getByRole('navigation', { name: 'Conversation list' })
      .getByRole('button', { name: new RegExp(name) })
      .click({ timeout: 30_000 });
  };
  await open('Finn');
  const draft = page.getByRole('region', { name: 'Draft from your Wingman' });
  await expect(draft).toContainText('Muse (AI) drafted this for you', { timeout: 30_000 });
  await expect(draft).toContainText('Hello! What is the best concert you have been to?');
  // Nothing was sent on her behalf.
  expect(await sentTo(finn)).toEqual([]);
  await expectNoSeriousA11yViolations(page);
  await draft.getByRole('button', { name: 'Helpful: this draft' }).click();
  await expect(draft.getByRole('button', { name: 'Helpful: this draft' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await draft.getByRole('button', { name: 'Send draft' }).click();
  await expect(draft).toHaveCount(0);
  const thread = page.getByRole('list', { name: 'Messages' });
  await expect(
    thread.locator('[data-message-id]').filter({ hasText: 'best concert' }).getByTestId('ai-label'),
  ).toHaveText('Written with AI help');
  await expect
    .poll(() => sentTo(finn), { timeout: 30_000 })
    .toEqual([
      {
        content: 'Hello! What is the best concert you have been to?',
        metadata: {
          ai: { generated: true, by: 'agent', agent_name: 'Muse', disclosure: 'written with AI help' },
        },
      },
    ]);

  // Finn answers; opened, the conversation waits on her, and Muse drafts a reply (the built-in coach writes it
  // here: no model is configured), from his last message and what they share.
  const [conversation] = await serviceGet<{ id: string }[]>(
    request,
    auth,
    `/rest/v1/conversations?select=id&or=(participant1_id.eq.${finn},participant2_id.eq.${finn})`,
  );
  await serviceWrite(request, auth, 'post', '/rest/v1/messages', {
    conversation_id: conversation!.id,
    sender_id: finn,
    recipient_id: eve,
    content: 'Jazz in the park last summer. And yours?',
  });
  await open('Finn');
  await expect(thread.getByText('Jazz in the park last summer. And yours?')).toBeVisible({ timeout: 30_000 });
  await expect(draft).toContainText('Muse (AI) drafted a reply to Finn', { timeout: 30_000 });
  await expect(draft).toContainText("Good question! I'd love to tell you more. What made you ask?");
  expect(await sentTo(finn)).toHaveLength(1);
  // Turned down, it goes; her own reply is hers alone.
  await draft.getByRole('button', { name: 'Not for me: this draft' }).click();
  await draft.getByRole('button', { name: 'Discard' }).click();
  await expect(draft).toHaveCount(0);

  // Her Wingman's log lists both first-message drafts and the reply.
  await page.goto('/agent-settings');
  const log = page.getByRole('list', { name: 'Wingman activity' });
  await expect(
    log.getByTestId('wingman-activity').filter({ hasText: 'Drafted a first message to' }),
  ).toHaveCount(2, {
    timeout: 30_000,
  });
  await expect(
    log.getByTestId('wingman-activity').filter({ hasText: 'Drafted a reply to Finn' }),
  ).toHaveCount(1);

  // Gus: she discards the draft; starters from what they share take its place; a turned-down topic goes.
  await open('Gus');
  await page
    .getByRole('region', { name: 'Draft from your Wingman' })
    .getByRole('button', { name: 'Discard' })
    .click();
  const starters = page.getByRole('region', { name: 'Conversation starters' });
  await expect(starters.getByTestId('starter')).toHaveCount(3);
  await expect(starters.getByTestId('starter').first()).toContainText('jazz (you both like it)');
  await starters.getByRole('button', { name: 'Not for me: surfing' }).click();
  await expect(starters.getByTestId('starter').filter({ hasText: 'surfing' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await starters.getByRole('button', { name: /^jazz/ }).click();
  const box = page.getByLabel(/^Message /);
  await expect(box).toHaveValue('Hi Gus! I see we both love jazz. What got you into it?');
  // Changed by her, it is her message: no AI label.
  await box.fill('Hi Gus! Jazz, really? Who do you listen to?');
  await box.press('Enter');
  await expect
    .poll(() => sentTo(gus), { timeout: 30_000 })
    .toEqual([{ content: 'Hi Gus! Jazz, really? Who do you listen to?', metadata: {} }]);
  await expect(thread.getByTestId('ai-label')).toHaveCount(0);
});
