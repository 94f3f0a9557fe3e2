// Two matched members in two browser contexts, set up through the UI sign-up and the service role (as a job would).
import type { APIRequestContext, Browser, BrowserContextOptions, Locator, Page } from '@playwright/test';
import {
  createAccount,
  getMemberId,
  getServiceAuth,
  serviceGet,
  serviceHeaders,
  serviceWrite,
  type ServiceAuth,
} from './service-role.ts';
import { acceptNecessaryCookies, expect, makeEmail, signUpAndConfirm } from './accounts.ts';
import { expectTapReaches } from './layers.ts';

export { getServiceAuth, serviceGet, serviceHeaders, serviceWrite, type ServiceAuth };

export async function newMemberPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await acceptNecessaryCookies(page);
  // The layout's match popup greets both members of the new match on whatever page they are.
  await page.addLocatorHandler(page.getByRole('button', { name: 'Keep Swiping' }), async (button) => {
    await button.click();
  });
  return page;
}

export interface MatchedMember {
  page: Page;
  id: string;
  email: string;
  firstName: string;
}

/** One member signed up through the UI (named "Test Member" by the sign-up form) in a page of its own. */
export async function signUpMember(
  browser: Browser,
  request: APIRequestContext,
  auth: ServiceAuth,
  tag: string,
  options: BrowserContextOptions = {},
): Promise<MatchedMember> {
  const page = await newMemberPage(browser, options);
  const email = makeEmail(tag);
  await signUpAndConfirm(page, request, email);
  return { page, id: await getMemberId(request, auth, email), email, firstName: 'Test' };
}

/** Signs both up, names them, and makes their match (a mutual like; SQL opens the conversation). */
export async function makeMatchedPair(
  browser: Browser,
  request: APIRequestContext,
  auth: ServiceAuth,
  names: [string, string],
  options: [BrowserContextOptions?, BrowserContextOptions?] = [],
): Promise<[MatchedMember, MatchedMember]> {
  const members: MatchedMember[] = [];
  for (const [i, firstName] of names.entries()) {
    const email = makeEmail(firstName.toLowerCase());
    const page = await newMemberPage(browser, options[i] ?? {});
    await signUpAndConfirm(page, request, email);
    const rows = await serviceGet<{ id: string }[]>(
      request,
      auth,
      `/rest/v1/profiles?select=id&email=eq.${encodeURIComponent(email)}`,
    );
    expect(rows).toHaveLength(1);
    const id = rows[0]!.id;
    await serviceWrite(request, auth, 'patch', `/rest/v1/profiles?id=eq.${id}`, {
      name: `${firstName} Example`,
    });
    members.push({ page, id, email, firstName });
  }
  const [a, b] = members as [MatchedMember, MatchedMember];
  await likeEachOther(request, auth, a.id, b.id);
  return [a, b];
}

/** A like each way, written as the service role: SQL makes the match and opens the conversation. */
export async function likeEachOther(
  request: APIRequestContext,
  auth: ServiceAuth,
  a: string,
  b: string,
): Promise<void> {
  for (const [from, to] of [
    [a, b],
    [b, a],
  ])
    await serviceWrite(request, auth, 'post', '/rest/v1/user_interactions', {
      user_id: from,
      target_id: to,
      interaction_type: 'like',
    });
}

/** A new member (no browser) named `name`, matched with `other`: a match that arrives on other's open pages. */
export async function matchNewMember(
  request: APIRequestContext,
  auth: ServiceAuth,
  other: string,
  name: string,
): Promise<string> {
  const id = await createAccount(request, auth, name.split(' ')[0]!.toLowerCase());
  await serviceWrite(request, auth, 'patch', `/rest/v1/profiles?id=eq.${id}`, { name });
  await likeEachOther(request, auth, id, other);
  return id;
}

export async function openConversation(page: Page, otherName: string): Promise<void> {
  await page.goto('/messages');
  // In the new matches' row until either writes, in the conversations after.
  await page
    .getByRole('navigation', { name: 'Conversation list' })
    .getByRole('button', { name: new RegExp(otherName) })
    .click();
  await expect(page.getByRole('heading', { name: otherName, level: 2 })).toBeVisible();
}

export const thread = (page: Page) => page.getByRole('list', { name: 'Messages' });
export const messageInput = (page: Page) => page.getByLabel(/^Message /);

/**
 * A match made while `under` (a dialog, Lovy's panel) is open on `member`'s page: "It's a Match!" shows above
 * it (its button is what a tap there reaches) and Escape closes only the popup. The page's handler that puts
 * the popup away by itself is removed first; the popup is returned for more.
 */
export async function expectMatchPopupOver(
  request: APIRequestContext,
  auth: ServiceAuth,
  member: MatchedMember,
  newName: string,
  under: Locator,
): Promise<Locator> {
  const keepSwiping = member.page.getByRole('button', { name: 'Keep Swiping' });
  await member.page.removeLocatorHandler(keepSwiping);
  await matchNewMember(request, auth, member.id, newName);
  const popup = member.page.getByRole('dialog', { name: "It's a Match!" });
  await expect(popup).toBeVisible({ timeout: 20_000 });
  await expectTapReaches(keepSwiping);
  await member.page.keyboard.press('Escape');
  await expect(popup).toHaveCount(0);
  await expect(under).toBeVisible();
  return popup;
}
