// Members' core journeys with two members in two browser contexts: profile with a photo, discovery, like and
// like back with the match popup on both sides, likes-page actions, block, offline likes queued, axe on every screen.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from './support/test.ts';
import sharp from 'sharp';
import { acceptNecessaryCookies, makeEmail, signIn, signUpAndConfirm } from './support/accounts.ts';
import {
  getMemberId,
  getServiceAuth,
  serviceGet,
  serviceHeaders,
  setProfile,
} from './support/service-role.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { expectNotInDeck, skipUntilShown } from './support/deck.ts';
import { holdReplicaOnNextLoad, releaseReplica, replicaHasOpened } from './support/replica.ts';

// Journeys of several members, each walking up to two whole decks: minutes on a 2-core machine.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const headers = serviceHeaders;

async function newMemberPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await acceptNecessaryCookies(page);
  return page;
}

function makePhotoFile(): string {
  const file = path.join(os.tmpdir(), `hs-photo-${Date.now()}.png`);
  return file;
}

/**
 * Opens discovery and skips until the member with this id is on the card (other test members may rank higher).
 * By id, not by name: a deck fetched a moment before the member's profile was completed shows their old name.
 */
async function findInDeck(page: Page, memberId: string) {
  // Acts only once the fresh deck is in: the deck stored on the device is on screen until then.
  const fresh = page.waitForResponse((r) => r.url().includes('/rpc/get_discovery_candidates') && r.ok());
  await page.goto('/find-matches');
  await fresh;
  // A deck fetched before the other member finished their profile ends early: ask again, as a member would.
  await skipUntilShown(page, memberId, { lookAgain: true });
}

/** Opens discovery afresh and goes through the whole deck: the member is never offered. */
async function expectNotInFreshDeck(page: Page, memberId: string) {
  const fresh = page.waitForResponse((r) => r.url().includes('/rpc/get_discovery_candidates') && r.ok());
  await page.goto('/find-matches');
  await fresh;
  await expectNotInDeck(page, memberId);
}

const LONDON = { city: 'London', country: 'United Kingdom', location_lat: 51.5, location_lng: -0.1 };

test('two members: profile with a photo, discovery, like and like back, match popup on both sides', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const emailA = makeEmail('alice');
  const emailB = makeEmail('bruno');
  const a = await newMemberPage(browser, baseURL!);
  const b = await newMemberPage(browser, baseURL!);
  await signUpAndConfirm(a, request, emailA);
  await signUpAndConfirm(b, request, emailB);
  const idA = await getMemberId(request, auth, emailA);
  const idB = await getMemberId(request, auth, emailB);

  // A builds a profile through the UI, photo included.
  const photo = makePhotoFile();
  await sharp({ create: { width: 900, height: 700, channels: 3, background: { r: 200, g: 80, b: 120 } } })
    .png()
    .toFile(photo);
  // The builder goes in short steps, one save each, and the address names the step (a reload keeps it).
  await expect(a.getByRole('heading', { name: 'Build your profile' })).toBeVisible();
  await expect(a.getByTestId('builder-step')).toHaveText('Step 1 of 6: The basics');
  await expectNoSeriousA11yViolations(a);
  // The basics need a date of birth and a gender before they move on.
  await a.getByLabel('Name').fill('Alice Example');
  await a.getByRole('button', { name: 'Save and continue' }).click();
  await expect(a.getByRole('main').getByText('Enter your date of birth.')).toBeVisible();
  await expect(a.getByTestId('builder-step')).toHaveText('Step 1 of 6: The basics');
  await a.getByLabel('Date of birth').fill('1994-03-10');
  await a.getByLabel('Gender').selectOption('woman');
  await a.getByRole('group', { name: 'Looking for' }).getByLabel('Man', { exact: true }).check();
  // A's own view shows the age, never someone else's date.
  await expect(a.getByText(/You are \d+\. Others see your age/)).toBeVisible();
  await a.getByRole('button', { name: 'Save and continue' }).click();
  await expect(a.getByTestId('builder-step')).toHaveText('Step 2 of 6: Your photos');
  await expect(a).toHaveURL(/\/profile-builder\?step=photos$/);
  await a.locator('input[type=file]').setInputFiles(photo);
  await expect(a.getByRole('img', { name: 'Your main photo' })).toBeVisible({ timeout: 20_000 });
  await expect(a.getByText('Photos (1/6)')).toBeVisible();
  fs.rmSync(photo, { force: true });
  await a.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(a.getByTestId('builder-step')).toHaveText('Step 3 of 6: About you');
  // Codes read as words in the form ("its-complicated" is stored, "It's complicated" is shown).
  await expect(a.getByRole('option', { name: "It's complicated" })).toBeAttached();
  await expect(a.getByRole('option', { name: 'its-complicated' })).toHaveCount(0);
  await a.getByLabel('Bio').fill('Tea, trains and long walks.');
  // The text stays in the field while the row changes under it (the photo's sync, useFollowRow).
  await expect(a.getByLabel('Bio')).toHaveValue('Tea, trains and long walks.');
  await a.getByRole('button', { name: 'Save and continue' }).click();
  await expect(a.getByTestId('builder-step')).toHaveText('Step 4 of 6: Where you are');
  await a.reload();
  await expect(a.getByTestId('builder-step')).toHaveText('Step 4 of 6: Where you are');
  await a.getByLabel('City').fill('Lond');
  await a.getByRole('option', { name: 'London, England, United Kingdom' }).click();
  await a.getByRole('button', { name: 'Save and continue' }).click();
  await expect(a.getByTestId('builder-step')).toHaveText('Step 5 of 6: Who you want to meet');
  // Back goes one step back with what was saved; the preferences and questions can wait.
  await a.getByRole('button', { name: 'Back' }).click();
  await expect(a.getByText('Selected: London, England, United Kingdom')).toBeVisible();
  await a.getByRole('button', { name: 'Save and continue' }).click();
  await a.getByRole('button', { name: 'Skip for now' }).click();
  await expect(a.getByTestId('builder-step')).toHaveText('Step 6 of 6: Compatibility questions');
  await expectNoSeriousA11yViolations(a);
  // One save for the questions: two answers, each taking the own answer as acceptable.
  const questions = a.getByRole('region', { name: /Compatibility questions/ }).getByRole('listitem');
  await questions.nth(0).getByRole('group', { name: 'Your answer' }).getByRole('radio').first().check();
  await questions.nth(1).getByRole('group', { name: 'Your answer' }).getByRole('radio').first().check();
  await expect(a.getByText('2 unsaved answers.')).toBeVisible();
  await a.getByRole('button', { name: 'Save and finish' }).click();
  await expect(a.getByText('2 answers saved')).toBeVisible();
  await expect(a).toHaveURL(/\/find-matches/);
  await expect
    .poll(
      async () =>
        (
          await serviceGet<unknown[]>(request, auth, `/rest/v1/profiles?id=eq.${idA}&select=city,bio,gender`)
        )[0],
      { timeout: 30_000 },
    )
    .toEqual({ city: 'London', bio: 'Tea, trains and long walks.', gender: 'woman' });
  await expect
    .poll(
      async () =>
        (
          await serviceGet<unknown[]>(
            request,
            auth,
            `/rest/v1/profile_answers?user_id=eq.${idA}&select=answer`,
          )
        ).length,
      { timeout: 30_000 },
    )
    .toBe(2);

  await setProfile(request, auth, idB, {
    name: 'Bruno Example',
    birthday: '1991-06-01',
    gender: 'man',
    looking_for: ['woman'],
    ...LONDON,
  });

  // A finds B in discovery and likes by keyboard.
  await findInDeck(a, idB);
  await expect(a.getByText('Less than 5 km away')).toBeVisible();
  await expect(a.getByText(/% compatible/)).toBeVisible();
  await expectNoSeriousA11yViolations(a);
  await a.keyboard.press('ArrowRight');
  await expect(a.getByText('Like sent!')).toBeVisible();
  await expect(a.getByText('Your like has been sent successfully.')).toBeVisible();

  // B sees the like (badge and likes page) and likes back.
  await findInDeck(b, idA);
  await expect(b.getByTestId('likes-badge').first()).toBeVisible({ timeout: 30_000 });
  // The dashboard counts the like waiting for an answer, as the likes page lists it.
  await b.goto('/dashboard');
  await expect(b.getByTestId('stat-likes-waiting')).toHaveText('1', { timeout: 30_000 });
  // A photo whose address is still being signed shows a quiet shape of its size, never the "no photo" avatar
  // (it read as a member without photos for a moment); then the photo itself.
  let releaseSigning = () => {};
  const signingHeld = new Promise<void>((resolve) => (releaseSigning = resolve));
  await b.route('**/storage/v1/object/sign/profile-photos', async (route) => {
    await signingHeld;
    await route.continue();
  });
  await b.goto('/likes');
  const like = b.getByTestId('received-like').filter({ hasText: 'Alice' });
  await expect(like).toBeVisible({ timeout: 20_000 });
  const firstPhoto = like.getByRole('img', { name: /^Photo 1 of Alice/ });
  await expect(firstPhoto).toHaveAttribute('aria-busy', 'true');
  await expect(like.locator('img[src$="/images/avatar.png"]')).toHaveCount(0);
  releaseSigning();
  await expect(firstPhoto).toHaveAttribute('src', /\/storage\/v1\/object\/sign\//);
  await b.unroute('**/storage/v1/object/sign/profile-photos');
  // A photo that cannot be signed shows the avatar from the first failed attempt, not after every retry.
  await b.route('**/storage/v1/object/sign/profile-photos', (route) =>
    route.fulfill({
      status: 500,
      json: { statusCode: '500', error: 'Internal', message: 'Storage is down' },
    }),
  );
  await b.reload();
  await expect(like).toBeVisible({ timeout: 20_000 });
  await expect(like.locator('img[src$="/images/avatar.png"]').first()).toBeVisible({ timeout: 3_000 });
  await b.unroute('**/storage/v1/object/sign/profile-photos');
  await expectNoSeriousA11yViolations(b);
  await like.getByRole('button', { name: 'Like back' }).click();
  await expect(b.getByText('Like sent back!')).toBeVisible();
  await expect(b.getByText("You've liked them back!")).toBeVisible();

  // Both see the match popup once the match row reaches their replicas.
  await expect(b.getByRole('dialog').getByText("It's a Match!")).toBeVisible({ timeout: 30_000 });
  await expect(b.getByText('You and Alice liked each other!')).toBeVisible();
  await expect(a.getByRole('dialog').getByText("It's a Match!")).toBeVisible({ timeout: 30_000 });
  await expect(a.getByText('You and Bruno liked each other!')).toBeVisible();
  await expectNoSeriousA11yViolations(a);
  // Escape closes the popup; "Send Message" opens the new conversation itself.
  await a.keyboard.press('Escape');
  await expect(a.getByRole('dialog')).toHaveCount(0);
  await b.getByRole('button', { name: 'Send Message' }).click();
  await expect(b).toHaveURL(/\/messages\?c=[0-9a-f-]{36}$/);
  await expect(b.getByRole('heading', { name: 'Alice', level: 2 })).toBeVisible();

  // My Matches lists the other member on both sides.
  await a.goto('/match-list');
  await expect(a.getByTestId('match-row').filter({ hasText: 'Bruno' })).toBeVisible({ timeout: 20_000 });
  await expectNoSeriousA11yViolations(a);
  // On a new device (a phone) the replica starts empty and the match arrives with the first sync: it is listed,
  // and it is not news, so no popup (the popup's own query may lag the list's a moment: a second to show it,
  // were it wrong).
  const phone = await browser.newContext({ baseURL: baseURL!, viewport: { width: 390, height: 844 } });
  const a2 = await phone.newPage();
  await acceptNecessaryCookies(a2);
  await signIn(a2, emailA);
  await a2.goto('/match-list');
  const row2 = a2.getByTestId('match-row').filter({ hasText: 'Bruno' });
  await expect(row2).toBeVisible({ timeout: 30_000 });
  await a2.waitForTimeout(1_000);
  await expect(a2.getByText("It's a Match!")).toHaveCount(0);
  // On a phone the row's actions fit its width: Message, the calls, and a More menu for View profile, Unmatch
  // and Report, which closes on Escape.
  const rowBox = (await row2.boundingBox())!;
  for (const action of [
    row2.getByRole('link', { name: 'Message' }),
    row2.getByRole('button', { name: 'More actions' }),
  ]) {
    const box = (await action.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(rowBox.x + rowBox.width);
  }
  await expect(row2.getByRole('button', { name: 'Unmatch' })).toBeHidden();
  await row2.getByRole('button', { name: 'More actions' }).click();
  const more = a2.getByRole('menu', { name: 'More actions for Bruno' });
  await expect(more.getByRole('menuitem')).toHaveText(['View profile', 'Unmatch', 'Report']);
  await expectNoSeriousA11yViolations(a2);
  await a2.keyboard.press('Escape');
  await expect(more).toHaveCount(0);
  // Message opens the conversation with that match, not the inbox.
  await row2.getByRole('link', { name: 'Message' }).click();
  await expect(a2).toHaveURL(/\/messages\?c=[0-9a-f-]{36}$/);
  await expect(a2.getByRole('heading', { name: 'Bruno', level: 2 })).toBeVisible();
  await phone.close();
  await a.goto('/profile');
  await expect(a.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  await expectNoSeriousA11yViolations(a);
  // One completeness rule: My Profile and the dashboard show the same figure.
  const percent = (await a.getByText(/^Profile \d+% complete$/).textContent())!.match(/\d+/)![0];
  await a.goto('/dashboard');
  await expect(a.getByText(`${percent}% complete`, { exact: true })).toBeVisible({ timeout: 30_000 });
  // The dashboard greets her by first name and leads on to the deck.
  await expect(a.getByRole('heading', { level: 1, name: 'Welcome back, Alice' })).toBeVisible();
  await expect(a.getByTestId('stat-matches')).toHaveText('1');
  await expectNoSeriousA11yViolations(a);
  // The next start paints the dashboard at once, with what it showed last, while the replica opens (held here),
  // then the replica's answer takes over; so does the conversation list.
  await holdReplicaOnNextLoad(a);
  await a.reload();
  await expect(a.getByRole('heading', { level: 1, name: 'Welcome back, Alice' })).toBeVisible();
  await expect(a.getByTestId('stat-matches')).toHaveText('1');
  await expect(a.getByText(`${percent}% complete`, { exact: true })).toBeVisible();
  await expect(a.getByRole('link', { name: 'Start swiping' })).toBeInViewport();
  expect(await replicaHasOpened(a)).toBe(false);
  await releaseReplica(a);
  await expect.poll(() => replicaHasOpened(a)).toBe(true);
  await expect(a.getByTestId('stat-matches')).toHaveText('1');
  await a.goto('/messages');
  const bruno = a.getByRole('navigation', { name: 'Conversation list' }).getByText('Bruno');
  await expect(bruno).toBeVisible();
  await holdReplicaOnNextLoad(a);
  await a.reload();
  await expect(bruno).toBeVisible();
  expect(await replicaHasOpened(a)).toBe(false);
  await releaseReplica(a);
  await expect.poll(() => replicaHasOpened(a)).toBe(true);
  await expect(bruno).toBeVisible();
  await a.goto('/dashboard');
  await a.getByRole('link', { name: 'Start swiping' }).click();
  await expect(a).toHaveURL(/\/find-matches$/);

  // Blocking from the likes page: a third member who liked B disappears for B, and B from their deck.
  const emailC = makeEmail('carol');
  const c = await newMemberPage(browser, baseURL!);
  await signUpAndConfirm(c, request, emailC);
  const idC = await getMemberId(request, auth, emailC);
  await setProfile(request, auth, idC, {
    name: 'Carol Example',
    birthday: '1993-01-01',
    gender: 'woman',
    looking_for: ['man'],
    ...LONDON,
  });
  await findInDeck(c, idB);
  await c.getByRole('button', { name: 'Like', exact: true }).click();
  await expect(c.getByText('Like sent!')).toBeVisible();
  await expect
    .poll(async () => {
      const r = await request.get(
        `/rest/v1/user_interactions?select=id&user_id=eq.${idC}&target_id=eq.${idB}`,
        {
          headers: headers(auth),
        },
      );
      return ((await r.json()) as unknown[]).length;
    })
    .toBe(1);
  await b.goto('/likes');
  const carol = b.getByTestId('received-like').filter({ hasText: 'Carol' });
  await expect(carol).toBeVisible({ timeout: 20_000 });
  // Block is in the card's More menu and asks first.
  await carol.getByRole('button', { name: 'More actions' }).click();
  await b.getByRole('menuitem', { name: 'Block' }).click();
  await b.getByRole('alertdialog', { name: 'Block Carol?' }).getByRole('button', { name: 'Block' }).click();
  await expect(b.getByText('User blocked')).toBeVisible();
  await expect(b.getByText('User has been blocked successfully.')).toBeVisible();
  await expect(carol).toHaveCount(0);
  // Written on the device and uploaded at once (decision 0108).
  const blocks = () =>
    request
      .get(`/rest/v1/blocked_users?select=reason&blocker_id=eq.${idB}&blocked_id=eq.${idC}`, {
        headers: headers(auth),
      })
      .then((r) => r.json());
  await expect.poll(blocks, { timeout: 20_000 }).toEqual([{ reason: 'User blocked from likes' }]);
  // B's fresh deck no longer offers the member B blocked.
  await expectNotInFreshDeck(b, idC);

  // Offline swiping: C's like waits in the queue and uploads once back online.
  const emailD = makeEmail('dave');
  const d = await newMemberPage(browser, baseURL!);
  await signUpAndConfirm(d, request, emailD);
  const idD = await getMemberId(request, auth, emailD);
  await setProfile(request, auth, idD, {
    name: 'Dave Example',
    birthday: '1990-01-01',
    gender: 'man',
    looking_for: ['woman'],
    ...LONDON,
  });
  await findInDeck(c, idD);
  await c.context().setOffline(true);
  await c.keyboard.press('l');
  await expect(c.getByText('Like sent!')).toBeVisible();
  const likesOf = async () => {
    const r = await request.get(
      `/rest/v1/user_interactions?select=id&user_id=eq.${idC}&target_id=eq.${idD}`,
      {
        headers: headers(auth),
      },
    );
    return ((await r.json()) as unknown[]).length;
  };
  await c.waitForTimeout(1500);
  expect(await likesOf()).toBe(0);
  await c.context().setOffline(false);
  await expect.poll(likesOf, { timeout: 60_000 }).toBe(1);

  // Unmatch asks first, then removes the match for both.
  await a.goto('/match-list');
  const row = a.getByTestId('match-row').filter({ hasText: 'Bruno' });
  await expect(row).toBeVisible({ timeout: 20_000 });
  await row.getByRole('button', { name: 'Unmatch' }).click();
  await expect(a.getByRole('alertdialog')).toContainText('Unmatch Bruno?');
  await expectNoSeriousA11yViolations(a);
  await a.getByRole('alertdialog').getByRole('button', { name: 'Unmatch' }).click();
  await expect(row).toHaveCount(0);
  await expect
    .poll(
      async () => {
        const r = await request.get(
          `/rest/v1/matches?select=id&or=(user_id_1.eq.${idA},user_id_2.eq.${idA})`,
          {
            headers: headers(auth),
          },
        );
        return ((await r.json()) as unknown[]).length;
      },
      { timeout: 30_000 },
    )
    .toBe(0);
  await b.goto('/match-list');
  await expect(b.getByText('No matches yet.')).toBeVisible({ timeout: 30_000 });
});
