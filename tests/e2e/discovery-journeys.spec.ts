// Discovery journeys: the deck refreshes itself when the member changes her preferences, swipes wait while a
// fresh deck arrives, reporting from a card hides the pair for both at once, and the free daily like limit
// (the upgrade prompt when the SQL limit refuses a queued like, and before a like once the replica knows).
import { test, type APIRequestContext, type Browser, type Page } from './support/test.ts';
import { acceptNecessaryCookies, expect, makeEmail, signUpAndConfirm } from './support/accounts.ts';
import {
  countServerLikes,
  createAccount,
  getMemberId,
  getServiceAuth,
  seedLikes,
  serviceHeaders,
  setProfile,
  type ServiceAuth,
} from './support/service-role.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { countLocalInteractions, exposeReplica } from './support/local-replica.ts';
import {
  deckCard,
  deckSettling,
  expectNotInDeck,
  noMorePeople,
  placeOfItsOwn,
  skipUntilShown,
} from './support/deck.ts';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

function headers(auth: ServiceAuth, prefer?: string) {
  return { ...serviceHeaders(auth), ...(prefer ? { prefer } : {}) };
}

async function setPreferences(
  request: APIRequestContext,
  auth: ServiceAuth,
  id: string,
  fields: Record<string, unknown>,
) {
  const res = await request.post('/rest/v1/match_preferences?on_conflict=user_id', {
    headers: headers(auth, 'return=representation,resolution=merge-duplicates'),
    data: { user_id: id, ...fields },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/**
 * A member's page whose replica is readable by the test (window.heartsyncReplica). Service workers are blocked
 * so page.route sees the app's own requests.
 */
async function newMemberPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, serviceWorkers: 'block' });
  const page = await context.newPage();
  await acceptNecessaryCookies(page);
  await exposeReplica(page);
  return page;
}

const card = deckCard;
const noMore = noMorePeople;
const settling = deckSettling;

const LONDON = { city: 'London', country: 'United Kingdom', location_lat: 51.5, location_lng: -0.1 };
/** Around Inverness: the tests whose decks must hold only their own members live here, within 5 km. */
const HIGHLANDS = { city: 'Inverness', country: 'United Kingdom', lat: 57.5, lng: -4.5 };

test('the deck refreshes itself when she changes her preferences; swipes wait while a fresh deck arrives', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const here = placeOfItsOwn(HIGHLANDS);
  const emailM = makeEmail('mira');
  const m = await newMemberPage(browser, baseURL!);
  await signUpAndConfirm(m, request, emailM);
  const idM = await getMemberId(request, auth, emailM);
  await setProfile(request, auth, idM, {
    name: 'Mira Example',
    birthday: '1994-03-10',
    gender: 'woman',
    looking_for: ['man'],
    ...here,
  });
  // Nobody within 5 km of her is non-binary: her first deck is empty.
  await setPreferences(request, auth, idM, {
    min_age: 18,
    max_age: 120,
    genders: ['non-binary'],
    max_distance_band: 'under 5 km',
  });
  const idN = await createAccount(request, auth, 'nolan');
  await setProfile(request, auth, idN, {
    name: 'Nolan Example',
    birthday: '1990-05-05',
    gender: 'man',
    looking_for: ['woman'],
    ...here,
  });

  await m.goto('/find-matches');
  await expect(noMore(m)).toBeVisible({ timeout: 30_000 });
  // The filters say which saved preferences apply, in words.
  await expect(m.getByText('Your preferences: any age · within 5 km · Non-binary')).toBeVisible({
    timeout: 30_000,
  });

  // She changes "Show me" in another tab; the open deck refreshes without "Look again".
  const tab = await m.context().newPage();
  await tab.goto('/profile');
  const showMe = tab.getByRole('group', { name: 'Show me (none means everyone)' });
  await expect(showMe.getByLabel('Non-binary', { exact: true })).toBeChecked({ timeout: 30_000 });
  await showMe.getByLabel('Non-binary', { exact: true }).uncheck();
  await showMe.getByLabel('Man', { exact: true }).check();
  await tab.getByRole('button', { name: 'Save preferences' }).click();
  await expect(tab.getByText('Preferences saved')).toBeVisible();
  await tab.close();
  await skipUntilShown(m, idN);
  await expect(m.getByRole('button', { name: 'Look again' })).toHaveCount(0);
  await expect(m.getByText('Your preferences: any age · within 5 km · Man')).toBeVisible();
  await expectNoSeriousA11yViolations(m);
  // Like and Skip are on screen without scrolling, on a phone and on a desktop.
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await m.setViewportSize(size);
    for (const name of ['Like', 'Skip'])
      await expect(m.getByRole('button', { name, exact: true })).toBeInViewport({ ratio: 1 });
  }
  // Other members ahead of Nolan in her deck may have been skipped.
  const swiped = await countLocalInteractions(m, idM);

  // On reopening, the stored deck shows at once while the fresh one is held back: like, skip and block wait,
  // and the like/skip keys do nothing, so nothing lands on a card about to be replaced.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await m.route('**/rest/v1/rpc/get_discovery_candidates', async (route) => {
    await held;
    await route.continue();
  });
  await m.reload();
  await expect(settling(m)).toBeVisible({ timeout: 30_000 });
  await expect(card(m)).toHaveAttribute('data-member-id', idN);
  for (const name of ['Like', 'Skip', 'Block'])
    await expect(m.getByRole('button', { name, exact: true })).toBeDisabled();
  await expectNoSeriousA11yViolations(m);
  for (const key of ['ArrowRight', 'l', 'ArrowLeft', 's']) await m.keyboard.press(key);
  expect(await countLocalInteractions(m, idM)).toBe(swiped);
  release();
  await expect(settling(m)).toBeHidden({ timeout: 30_000 });
  await expect(m.getByRole('button', { name: 'Like', exact: true })).toBeEnabled();
  await expect(m.getByText('Like sent!')).toHaveCount(0);
  expect(await countLocalInteractions(m, idM)).toBe(swiped);
  await m.unroute('**/rest/v1/rpc/get_discovery_candidates');

  // Once the fresh deck is in, the keys work again.
  await skipUntilShown(m, idN);
  await m.keyboard.press('ArrowRight');
  await expect(m.getByText('Like sent!')).toBeVisible();
  expect(await countLocalInteractions(m, idM)).toBe(swiped + 1);
});

test('reporting from a discovery card: both stop seeing each other at once, the report waits for the operator', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const emailR = makeEmail('rhea');
  const emailS = makeEmail('silas');
  const r = await newMemberPage(browser, baseURL!);
  const s = await newMemberPage(browser, baseURL!);
  await signUpAndConfirm(r, request, emailR);
  await signUpAndConfirm(s, request, emailS);
  const idR = await getMemberId(request, auth, emailR);
  const idS = await getMemberId(request, auth, emailS);
  await setProfile(request, auth, idR, {
    name: 'Rhea Example',
    birthday: '1995-02-02',
    gender: 'woman',
    looking_for: ['man'],
    ...LONDON,
  });
  await setProfile(request, auth, idS, {
    name: 'Silas Example',
    birthday: '1992-07-07',
    gender: 'man',
    looking_for: ['woman'],
    ...LONDON,
  });
  // Before the report, each is in the other's deck.
  await s.goto('/find-matches');
  await skipUntilShown(s, idR);
  await r.goto('/find-matches');
  await skipUntilShown(r, idS);

  // The dialog closes on Escape and on a tap outside it, as every dialog does.
  const dialog = r.getByRole('dialog', { name: 'Report Silas' });
  await r.getByRole('button', { name: 'Report' }).click();
  await expect(dialog).toBeVisible();
  await r.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await r.getByRole('button', { name: 'Report' }).click();
  await expect(dialog).toBeVisible();
  await r.mouse.click(5, 5);
  await expect(dialog).toHaveCount(0);
  await r.getByRole('button', { name: 'Report' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Choose what is wrong.');
  await dialog.getByLabel('What is wrong?').selectOption({ label: 'Harassment' });
  await dialog.getByLabel('Details').fill('Sent me rude messages elsewhere.');
  await expectNoSeriousA11yViolations(r);
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(r.getByText('Report sent')).toBeVisible();
  await expect(r.getByText('Thank you. You and Silas will no longer see each other.')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(r.locator(`[data-testid="discovery-card"][data-member-id="${idS}"]`)).toHaveCount(0);

  // The operator's queue holds the pending report.
  const res = await request.get(
    `/rest/v1/reports?select=category,details,status&reporter_id=eq.${idR}&reported_id=eq.${idS}`,
    { headers: headers(auth) },
  );
  expect(await res.json()).toEqual([
    { category: 'harassment', details: 'Sent me rude messages elsewhere.', status: 'pending' },
  ]);

  // Fresh decks on both sides leave the other out.
  await r.goto('/find-matches');
  await expectNotInDeck(r, idS);
  await s.goto('/find-matches');
  await expectNotInDeck(s, idR);
});

test('blocking from a discovery card asks first; an unblock in Account settings brings them back to the deck', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const emailW = makeEmail('wren');
  const w = await newMemberPage(browser, baseURL!);
  await signUpAndConfirm(w, request, emailW);
  const idW = await getMemberId(request, auth, emailW);
  const idY = await createAccount(request, auth, 'yusuf');
  await setProfile(request, auth, idW, {
    name: 'Wren Example',
    birthday: '1994-03-03',
    gender: 'woman',
    looking_for: ['man'],
    ...LONDON,
  });
  await setProfile(request, auth, idY, {
    name: 'Yusuf Example',
    birthday: '1991-08-08',
    gender: 'man',
    looking_for: ['woman'],
    ...LONDON,
  });
  await w.goto('/find-matches');
  await skipUntilShown(w, idY);

  // A stray tap blocks nobody: the block asks, and Cancel leaves Yusuf on the card.
  const confirm = w.getByRole('alertdialog', { name: 'Block Yusuf?' });
  await w.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(confirm).toContainText('You can unblock them in Account settings.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(card(w)).toHaveAttribute('data-member-id', idY);
  const blocks = () =>
    request
      .get(`/rest/v1/blocked_users?select=reason&blocker_id=eq.${idW}`, { headers: headers(auth) })
      .then((r) => r.json());
  expect(await blocks()).toEqual([]);
  await w.getByRole('button', { name: 'Block', exact: true }).click();
  await confirm.getByRole('button', { name: 'Block' }).click();
  await expect(w.getByText('User has been blocked successfully.')).toBeVisible();
  await expect(w.locator(`[data-testid="discovery-card"][data-member-id="${idY}"]`)).toHaveCount(0);
  // Written on the device and uploaded at once (decision 0108).
  await expect.poll(blocks, { timeout: 20_000 }).toEqual([{ reason: 'User blocked from discovery' }]);
  await w.goto('/find-matches');
  await expectNotInDeck(w, idY);

  // Unblocked in Account settings, Yusuf is in her next deck again.
  await w.goto('/account');
  const blocked = w.getByRole('region', { name: 'Blocked members' });
  await blocked.getByRole('button', { name: 'Unblock Yusuf' }).click({ timeout: 20_000 });
  await w
    .getByRole('alertdialog', { name: 'Unblock Yusuf?' })
    .getByRole('button', { name: 'Unblock' })
    .click();
  await expect(blocked.getByText('You have not blocked anyone.')).toBeVisible();
  await expect.poll(blocks, { timeout: 20_000 }).toEqual([]);
  await w.goto('/find-matches');
  await skipUntilShown(w, idY, { lookAgain: true });
});

test('a free member at the daily like limit: the SQL limit refuses a queued like and the upgrade prompt opens; likes and likes back then stop before writing', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const here = placeOfItsOwn(HIGHLANDS);
  const emailL = makeEmail('lena');
  const l = await newMemberPage(browser, baseURL!);
  await signUpAndConfirm(l, request, emailL);
  const idL = await getMemberId(request, auth, emailL);
  await setProfile(request, auth, idL, {
    name: 'Lena Example',
    birthday: '1993-04-04',
    gender: 'woman',
    looking_for: ['non-binary'],
    ...here,
  });
  await setPreferences(request, auth, idL, {
    min_age: 18,
    max_age: 120,
    genders: ['non-binary'],
    max_distance_band: 'under 5 km',
  });
  const others: string[] = [];
  for (const name of ['Theo Example', 'Tate Example']) {
    const id = await createAccount(request, auth, 'tnb');
    others.push(id);
    await setProfile(request, auth, id, {
      name,
      birthday: '1991-01-01',
      gender: 'non-binary',
      looking_for: ['woman'],
      ...here,
    });
  }
  // Theo likes her (answered on the likes page at the end).
  await seedLikes(request, auth, others[0]!, [idL]);
  // 48 of the 50 daily likes, sent to accounts outside discovery (no name), instead of 48 clicks.
  const seeded: string[] = [];
  for (let i = 0; i < 50; i++) seeded.push(await createAccount(request, auth, 'liked'));
  await seedLikes(request, auth, idL, seeded.slice(0, 48));

  await l.goto('/find-matches');
  await expect(card(l)).toBeVisible({ timeout: 30_000 });
  await expect(settling(l)).toBeHidden({ timeout: 30_000 });
  await expect.poll(() => countLocalInteractions(l, idL), { timeout: 30_000 }).toBe(48);

  // Offline, she likes the card on top: this device counts 48 likes, so the like is queued. A fresh deck that
  // was on its way when the network went (her profile and preferences arrive in separate syncs, each may
  // refresh the deck) ends first: a key pressed while it settles is ignored by design (decision 30).
  await l.context().setOffline(true);
  await expect(settling(l)).toBeHidden({ timeout: 30_000 });
  await expect(l.getByRole('button', { name: 'Like', exact: true })).toBeEnabled();
  await l.keyboard.press('l');
  await expect(l.getByText('Like sent!')).toBeVisible();
  expect(await countLocalInteractions(l, idL)).toBe(49);
  // Meanwhile her other device uses the last two likes of the day.
  await seedLikes(request, auth, idL, seeded.slice(48));
  expect(await countServerLikes(request, auth, idL)).toBe(50);

  // Back online the upload meets the SQL limit: the write is dropped and the upgrade prompt opens.
  await l.context().setOffline(false);
  const prompt = l.getByRole('dialog', { name: "You've used today's likes" });
  await expect(prompt).toBeVisible({ timeout: 60_000 });
  await expect(prompt).toContainText('Upgrade to Premium for unlimited likes and matches.');
  await expect(l.getByText('You have used all your likes for today.')).toBeVisible();
  await expectNoSeriousA11yViolations(l);
  expect(await countServerLikes(request, auth, idL)).toBe(50);
  await prompt.getByRole('button', { name: 'Maybe later' }).click();
  await expect(prompt).toHaveCount(0);

  // Now this device knows the 50 likes: the next like is stopped before it is written.
  await expect.poll(() => countLocalInteractions(l, idL), { timeout: 30_000 }).toBe(50);
  await expect(card(l)).toBeVisible();
  await l.getByRole('button', { name: 'Like', exact: true }).click();
  await expect(prompt).toBeVisible();
  expect(await countLocalInteractions(l, idL)).toBe(50);
  await expect(prompt.getByRole('link', { name: 'Upgrade Now' })).toHaveAttribute('href', '/pricing');

  // A like back is a like: on the likes page the limit opens the same prompt.
  await l.goto('/likes');
  const theo = l.getByTestId('received-like').filter({ hasText: 'Theo' });
  await expect(theo).toBeVisible({ timeout: 20_000 });
  await theo.getByRole('button', { name: 'Like back' }).click();
  await expect(prompt).toBeVisible();
  await expect(l.getByText('Like sent back!')).toHaveCount(0);
  await expectNoSeriousA11yViolations(l);
  expect(await countLocalInteractions(l, idL)).toBe(50);
  expect(await countServerLikes(request, auth, idL)).toBe(50);
});
