// Games between two matches (issue 19), two members in two browser contexts: an invitation from the thread,
// accepted from its card ("Game Started", "Let's play!"), three This-or-That rounds with the reveal, one of them
// answered offline and revealed after reconnecting with no refresh, then the result; a story with four turns
// that reads back as one text, started from the portal's list through the match picker (over which a new
// match's "It's a Match!" shows, and closes alone); a decline of a game started by New game; and the "Game
// Error" fallback for a game that cannot be played.
import type { Page } from '@playwright/test';
import { expect } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { getServiceAuth, serviceGet, serviceWrite } from './support/service-role.ts';
import { expectMatchPopupOver, makeMatchedPair, openConversation, thread } from './support/two-members.ts';
import { test } from './support/test.ts';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

const round = (page: Page, n: number) => page.locator(`[data-round="${n}"]`);

/** Picks in This-or-That (the option's text), on the given round. */
async function pick(page: Page, n: number, option: string) {
  await round(page, n).getByRole('button', { name: option, exact: true }).click();
}

test('an invitation from the thread, three rounds with the reveal, one answered offline, and the result', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const [ann, bea] = await makeMatchedPair(browser, request, auth, ['Ann', 'Bea']);
  await bea.page.setViewportSize({ width: 390, height: 844 });

  await openConversation(ann.page, 'Bea');
  await ann.page.getByRole('button', { name: 'Play a game with Bea' }).click();
  const dialog = ann.page.getByRole('dialog', { name: 'Play a game with Bea' });
  await expect(dialog.getByText('This or That')).toBeVisible();
  // The dialog closes on Escape, and opens again.
  await ann.page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await ann.page.getByRole('button', { name: 'Play a game with Bea' }).click();
  await dialog.getByText('This or That').click();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(ann.page).toHaveURL(/\/games\/[0-9a-f-]{36}$/);
  await expect(ann.page.getByText('Waiting for Bea to accept your invitation.')).toBeVisible();

  // Bea answers from the card in her thread.
  await openConversation(bea.page, 'Ann');
  const card = thread(bea.page).getByTestId('game-invite-card');
  await expect(card).toContainText('Ann invited you to play This or That', { timeout: 20_000 });
  await card.getByRole('button', { name: 'Accept' }).click();
  await expect(bea.page.getByText('Game Started', { exact: true })).toBeVisible();
  await expect(bea.page.getByText("Let's play!")).toBeVisible();
  await expect(bea.page).toHaveURL(/\/games\//);

  // Round 1 is the spec's first question, on both screens (Ann's follows through sync).
  for (const p of [ann.page, bea.page]) {
    await expect(round(p, 1)).toContainText('Your perfect morning starts with...', { timeout: 20_000 });
    await expect(p.getByTestId('game-status')).toHaveText('In progress');
  }
  await pick(ann.page, 1, 'Coffee');
  await expect(round(ann.page, 1)).toContainText('Waiting for Bea...');
  await pick(bea.page, 1, 'Tea');
  for (const p of [ann.page, bea.page]) {
    await expect(round(p, 1).getByTestId('reveal')).toContainText('Opposites attract!', { timeout: 20_000 });
  }
  await expect(round(ann.page, 1).getByTestId('reveal')).toContainText('Coffee');
  await expect(round(ann.page, 1).getByTestId('reveal')).toContainText('Tea');
  // A reaction reaches the other side.
  await round(bea.page, 1).getByRole('button', { name: 'Haha' }).click();
  await expect(round(ann.page, 1).getByTestId('their-reaction')).toHaveText('Bea reacted: Haha', {
    timeout: 20_000,
  });
  await expectNoSeriousA11yViolations(bea.page);

  // Round 2: Bea answers offline; her answer shows as hers, and the reveal comes once she is back.
  await ann.page.getByRole('button', { name: 'Next round' }).click();
  await expect(round(bea.page, 2)).toBeVisible({ timeout: 20_000 });
  const q2 = round(bea.page, 2).getByRole('button').first();
  const bea2 = (await q2.textContent())!.trim();
  await bea.page.context().setOffline(true);
  await q2.click();
  await expect(round(bea.page, 2)).toContainText(`You picked ${bea2}. Waiting for Ann...`);
  await round(ann.page, 2).getByRole('button').first().click();
  await expect(round(ann.page, 2)).toContainText('Waiting for Bea...');
  await bea.page.context().setOffline(false);
  for (const p of [ann.page, bea.page]) {
    await expect(round(p, 2).getByTestId('reveal')).toContainText('You think alike!', { timeout: 30_000 });
  }

  // Round 3, then the result.
  await bea.page.getByRole('button', { name: 'Next round' }).click();
  await expect(round(ann.page, 3)).toBeVisible({ timeout: 20_000 });
  await round(ann.page, 3).getByRole('button').first().click();
  await round(bea.page, 3).getByRole('button').first().click();
  for (const p of [ann.page, bea.page])
    await expect(round(p, 3).getByTestId('reveal')).toContainText('You think alike!', { timeout: 20_000 });
  await ann.page.getByRole('button', { name: 'Finish game' }).click();
  for (const [p, other] of [
    [ann.page, 'Bea'],
    [bea.page, 'Ann'],
  ] as const) {
    await expect(p.getByTestId('game-result')).toHaveText(`You and ${other} agreed on 2 of 3.`, {
      timeout: 20_000,
    });
    await expect(p.getByTestId('game-status')).toHaveText('Finished');
  }
  // The portal lists it as finished.
  await bea.page.goto('/games');
  await expect(bea.page.getByRole('region', { name: 'Finished' })).toContainText('This or That with Ann');
});

test('a story with four turns reads back as one text; an invitation can be declined', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const [cal, dee] = await makeMatchedPair(browser, request, auth, ['Cal', 'Dee']);

  // Cal's replica has their match before he opens the games (a match arriving while the app is open is
  // greeted by "It's a Match!": one does, below, on purpose).
  await cal.page.goto('/match-list');
  await expect(cal.page.getByTestId('match-row').filter({ hasText: 'Dee' })).toBeVisible({ timeout: 20_000 });

  // From the portal's list of the four games: a story in the theme Cal picks. The game he chose there is
  // the one chosen when the invitation opens, after he picks whom to play with.
  await cal.page.goto('/games');
  const games = cal.page.getByRole('region', { name: 'The games' });
  await expect(games.getByRole('listitem')).toHaveCount(4);
  await games.getByRole('button', { name: 'Play Story Builder' }).click();
  // Whom to play with opens over the list, where he tapped: it closes on Escape and on a tap outside it.
  const picker = cal.page.getByRole('dialog', { name: 'Play Story Builder with…' });
  await expect(picker.getByRole('button', { name: 'Dee' })).toBeFocused();

  // A match made while it is open: "It's a Match!" shows above it (its button is what a tap there reaches),
  // Escape closes only the popup, and the focus goes back where it was; the new match joins the list.
  await expectMatchPopupOver(request, auth, cal, 'Eli Example', picker);
  await expect(picker.getByRole('button', { name: 'Dee' })).toBeFocused();
  await expect(picker.getByRole('button', { name: 'Eli' })).toBeVisible();
  await cal.page.keyboard.press('Escape');
  await expect(picker).toHaveCount(0);
  await expect(games.getByRole('button', { name: 'Play Story Builder' })).toBeFocused();
  await games.getByRole('button', { name: 'Play Story Builder' }).click();
  await cal.page.mouse.click(5, 5);
  await expect(picker).toHaveCount(0);
  await games.getByRole('button', { name: 'Play Story Builder' }).click();
  await picker.getByRole('button', { name: 'Dee' }).click();
  await expect(picker).toHaveCount(0);
  const dialog = cal.page.getByRole('dialog', { name: 'Play a game with Dee' });
  // Cancel there goes back to the game he chose in the list, with the focus on it.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(games.getByRole('button', { name: 'Play Story Builder' })).toBeFocused();
  await games.getByRole('button', { name: 'Play Story Builder' }).click();
  await picker.getByRole('button', { name: 'Dee' }).click();
  await expect(dialog.getByRole('radio', { name: /Story Builder/ })).toBeChecked();
  await dialog.getByLabel('Theme').selectOption({ label: 'The Midnight Bookshop (Hard)' });
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(cal.page).toHaveURL(/\/games\//);

  await dee.page.goto('/games');
  const invitations = dee.page.getByRole('region', { name: 'Invitations for you' });
  await expect(invitations).toContainText('Story Builder with Cal', { timeout: 20_000 });
  await invitations.getByRole('button', { name: 'Accept' }).click();
  await expect(dee.page.getByText('Game Started', { exact: true })).toBeVisible();

  const lines = [
    [cal.page, 'A cat sat on the counter reading our minds.'],
    [dee.page, 'I asked it for a book about us.'],
    [cal.page, 'It pushed one off the shelf: blank pages.'],
    [dee.page, 'So we started writing it together.'],
  ] as const;
  for (const p of [cal.page, dee.page])
    await expect(p.getByRole('heading', { name: 'The Midnight Bookshop' })).toBeVisible({ timeout: 20_000 });
  await expect(dee.page.getByText("Cal's turn...")).toBeVisible();
  for (const [p, line] of lines) {
    const field = p.getByLabel('Your line');
    await expect(field).toBeVisible({ timeout: 20_000 });
    await field.fill(line);
    await p.getByRole('button', { name: 'Add line' }).click();
    await expect(p.getByRole('list', { name: 'Story so far' })).toContainText(line);
  }
  await expect(cal.page.getByRole('list', { name: 'Story so far' })).toContainText(lines[3][1], {
    timeout: 20_000,
  });
  await cal.page.getByRole('button', { name: 'Finish story' }).click();
  for (const p of [cal.page, dee.page]) {
    const story = p.getByTestId('game-result');
    await expect(story).toContainText(`${lines[0][1]} ${lines[1][1]} ${lines[2][1]} ${lines[3][1]}`, {
      timeout: 20_000,
    });
  }

  // Dee invites Cal to Would You Rather from the portal's New game; Cal declines from the card in his thread.
  await dee.page.goto('/games');
  await dee.page.getByRole('button', { name: 'New game' }).click();
  await dee.page
    .getByRole('dialog', { name: 'Who will you play with?' })
    .getByRole('button', { name: 'Cal' })
    .click();
  const wyr = dee.page.getByRole('dialog', { name: 'Play a game with Cal' });
  await wyr.getByText('Would You Rather').click();
  await wyr.getByRole('button', { name: 'Send invitation' }).click();
  await openConversation(cal.page, 'Dee');
  const card = thread(cal.page).getByTestId('game-invite-card').filter({ hasText: 'Would You Rather' });
  await expect(card).toBeVisible({ timeout: 20_000 });
  await card.getByRole('button', { name: 'Decline' }).click();
  await expect(cal.page.getByText('Game Declined', { exact: true })).toBeVisible();
  await expect(card).toContainText('Declined');
  await expect(dee.page.getByText('Cal declined this game.')).toBeVisible({ timeout: 20_000 });
});

test('a game that cannot be played shows the Game Error fallback with Try Again', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const [eve, fay] = await makeMatchedPair(browser, request, auth, ['Eve', 'Fay']);
  // A game type this app does not know (as a newer server might offer): the screen cannot be drawn.
  await serviceWrite(request, auth, 'post', '/rest/v1/game_types', {
    id: `mystery-${Date.now()}`.slice(0, 39),
    name: 'Mystery',
    description: 'Not in this app',
    sort_order: 99,
  });
  const types = await serviceGet<{ id: string }[]>(
    request,
    auth,
    '/rest/v1/game_types?select=id&name=eq.Mystery',
  );
  const type = types[0]!.id;
  const sessionId = crypto.randomUUID();
  await serviceWrite(request, auth, 'post', '/rest/v1/game_sessions', {
    id: sessionId,
    player1_id: eve.id,
    player2_id: fay.id,
    game_type: type,
  });
  await eve.page.goto(`/games/${sessionId}`);
  const fallback = eve.page.getByRole('alert').filter({ hasText: 'Game Error' });
  await expect(fallback.getByRole('heading', { name: 'Game Error' })).toBeVisible({ timeout: 20_000 });
  await expect(fallback).toContainText('Something went wrong with the game. Please try again.');
  await fallback.getByRole('button', { name: 'Try Again' }).click();
  // Still broken, still caught: the member area around it keeps working.
  await expect(eve.page.getByRole('heading', { name: 'Game Error' })).toBeVisible();
  await eve.page.getByRole('link', { name: 'All games' }).click();
  await expect(eve.page.getByRole('heading', { name: 'Games', level: 1 })).toBeVisible();
});
