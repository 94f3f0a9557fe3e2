// The likes page at both sizes: the likers as a grid of photos (two a row on a phone, three beside the sidebar),
// a liker's whole profile opened by a tap on the photo (and from the More menu), a like back from it that makes
// the match, a skip from the card, a block that asks first, and the block lifted again from Account settings.
// Then offline: the likes and the Likes badge open from the replica; opening the likes clears the badge, and that
// "seen", a like back and a block made offline reach the server once back.
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './support/accounts.ts';
import { makeReadyForOffline } from './support/offline.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { expectTapReaches } from './support/layers.ts';
import { holdReplicaOnNextLoad, releaseReplica, replicaHasOpened } from './support/replica.ts';
import {
  countMatchesOf,
  createAccount,
  seedLikes,
  serviceGet,
  setProfile,
  type ServiceAuth,
} from './support/service-role.ts';
import { expectMatchPopupOver, getServiceAuth, signUpMember } from './support/two-members.ts';
import { test } from './support/test.ts';

test.describe.configure({ timeout: 120_000 });

const LONDON = { city: 'London', country: 'United Kingdom', location_lat: 51.5, location_lng: -0.1 };

/** Members (first names, each with extra profile fields) in London who liked `me`, oldest like first; their ids. */
async function seedLikers(
  request: APIRequestContext,
  auth: ServiceAuth,
  me: string,
  likers: readonly (readonly [string, Record<string, unknown>])[],
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [name, extra] of likers) {
    const id = await createAccount(request, auth, name.toLowerCase());
    await setProfile(request, auth, id, {
      name: `${name} Example`,
      birthday: '1990-05-01',
      gender: 'man',
      ...LONDON,
      ...extra,
    });
    await seedLikes(request, auth, id, [me]);
    ids[name] = id;
  }
  return ids;
}

/** The top of a card, rounded: cards in one row of the grid share it. */
async function getTop(page: Page, name: string): Promise<number> {
  const box = await page.getByTestId('received-like').filter({ hasText: name }).boundingBox();
  return Math.round(box!.y);
}

for (const size of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`likes as a grid: a profile, like back, skip, block and unblock at ${size.width}x${size.height}`, async ({
    browser,
    request,
    baseURL,
  }) => {
    const auth = await getServiceAuth(request, baseURL!);
    const member = await signUpMember(browser, request, auth, 'liked', { baseURL, viewport: size });
    const { page, id: me } = member;
    // Three members liked her, the newest last: Theo (with words and interests), Uma, Vic.
    await seedLikers(request, auth, me, [
      ['Theo', { bio: 'Climber, cook and bad pun enthusiast.', interests: ['climbing', 'cooking'] }],
      ['Uma', {}],
      ['Vic', {}],
    ]);

    await page.goto('/likes');
    const cards = page.getByTestId('received-like');
    await expect(cards).toHaveCount(3, { timeout: 20_000 });
    const card = (name: string) => cards.filter({ hasText: name });
    await expect(card('Theo')).toContainText('London');
    await expect(card('Theo').getByText('New', { exact: true })).toBeVisible();
    // A grid: two likers a row on a phone, three beside the sidebar; the first row's answers without scrolling.
    const tops = await Promise.all(['Vic', 'Uma', 'Theo'].map((n) => getTop(page, n)));
    if (size.width < 768) expect(tops[0] === tops[1] && tops[2]! > tops[0]!).toBe(true);
    else expect(new Set(tops).size).toBe(1);
    await expect(card('Vic').getByRole('button', { name: 'Like back' })).toBeInViewport();
    // Beside the sidebar the answers are in words; on a phone round icons with the same names.
    const likeBackWords = card('Vic').getByText('Like back', { exact: true });
    if (size.width < 768) await expect(likeBackWords).toBeHidden();
    else await expect(likeBackWords).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // A page load paints the likes this device showed last while the replica opens (held here), then the
    // replica's own: nothing asks the server for them.
    const askedServer: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/rpc/get_received_likes')) askedServer.push(r.url());
    });
    await holdReplicaOnNextLoad(page);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Likes' })).toBeVisible();
    await expect(cards).toHaveCount(3);
    await expect(card('Theo')).toContainText('London');
    expect(await replicaHasOpened(page)).toBe(false);
    await releaseReplica(page);
    await expect.poll(() => replicaHasOpened(page)).toBe(true);
    await expect(cards).toHaveCount(3);
    expect(askedServer).toEqual([]);

    // A tap on the photo opens Theo's whole profile; Escape closes it and the focus comes back.
    const viewTheo = card('Theo').getByRole('button', { name: "View Theo's profile" });
    await expectTapReaches(viewTheo);
    await viewTheo.click();
    const profile = page.getByRole('dialog', { name: /^Theo, \d+/ });
    await expect(profile).toBeVisible();
    await expect(profile.getByText('Climber, cook and bad pun enthusiast.')).toBeVisible();
    await expect(profile.getByRole('list', { name: 'Interests' }).getByRole('listitem')).toHaveText([
      'climbing',
      'cooking',
    ]);
    await expect(profile.getByText('Liked you today')).toBeVisible();
    await expect(profile.getByRole('button', { name: 'Like back' })).toBeInViewport();
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');
    await expect(profile).toHaveCount(0);
    await expect(viewTheo).toBeFocused();

    // The More menu opens it too; a tap outside closes it.
    await card('Theo').getByRole('button', { name: 'More actions' }).click();
    await page
      .getByRole('menu', { name: 'More actions for Theo' })
      .getByRole('menuitem', { name: 'View profile' })
      .click();
    await expect(profile).toBeVisible();
    await page.mouse.click(5, 5);
    await expect(profile).toHaveCount(0);

    // Like back from the profile: the like is sent, the profile closes, Theo leaves the list, and they match.
    // The popup is met here, not put away by the page's handler: a later step needs it gone first.
    const keepSwiping = page.getByRole('button', { name: 'Keep Swiping' });
    await page.removeLocatorHandler(keepSwiping);
    await viewTheo.click();
    await profile.getByRole('button', { name: 'Like back' }).click();
    await expect(page.getByText("You've liked them back!")).toBeVisible();
    await expect(profile).toHaveCount(0);
    await expect(card('Theo')).toHaveCount(0);
    const popup = page.getByRole('dialog', { name: "It's a Match!" });
    await expect(popup).toContainText('You and Theo liked each other!', { timeout: 20_000 });
    await keepSwiping.click();
    await expect(popup).toHaveCount(0);
    await expect.poll(() => countMatchesOf(request, auth, me), { timeout: 20_000 }).toBe(1);

    // A match that arrives while a card's More menu is open shows above it; its Escape leaves the menu open.
    await card('Vic').getByRole('button', { name: 'More actions' }).click();
    const vicMenu = page.getByRole('menu', { name: 'More actions for Vic' });
    await expectMatchPopupOver(request, auth, member, 'Wes Example', vicMenu);
    await page.keyboard.press('Escape');
    await expect(vicMenu).toHaveCount(0);

    // Skip from the card.
    await card('Uma').getByRole('button', { name: 'Skip' }).click();
    await expect(card('Uma')).toHaveCount(0);

    // Block asks first: Cancel keeps Vic, Block removes them.
    const openBlock = async () => {
      await card('Vic').getByRole('button', { name: 'More actions' }).click();
      await page
        .getByRole('menu', { name: 'More actions for Vic' })
        .getByRole('menuitem', { name: 'Block' })
        .click();
    };
    const confirmBlock = page.getByRole('alertdialog', { name: 'Block Vic?' });
    await openBlock();
    await expect(confirmBlock).toContainText('You can unblock them in Account settings.');
    await confirmBlock.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirmBlock).toHaveCount(0);
    await expect(card('Vic')).toBeVisible();
    await openBlock();
    await confirmBlock.getByRole('button', { name: 'Block' }).click();
    await expect(page.getByText('User has been blocked successfully.')).toBeVisible();
    await expect(card('Vic')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'No new likes right now' })).toBeVisible();
    // Written on the device and uploaded at once (decision 0108).
    await expect
      .poll(() => serviceGet(request, auth, `/rest/v1/blocked_users?select=reason&blocker_id=eq.${me}`), {
        timeout: 20_000,
      })
      .toEqual([{ reason: 'User blocked from likes' }]);

    // Account settings list Vic by first name; Unblock asks, then lifts the block on the server too.
    await page.goto('/account');
    const blocked = page.getByRole('region', { name: 'Blocked members' });
    const vic = blocked.getByTestId('blocked-member');
    await expect(vic).toHaveCount(1, { timeout: 20_000 });
    await expect(vic).toContainText('Vic');
    await expect(vic).not.toContainText('Example');
    await expect(vic).toContainText('Blocked today');
    await expectNoSeriousA11yViolations(page);
    await vic.getByRole('button', { name: 'Unblock Vic' }).click();
    const confirmUnblock = page.getByRole('alertdialog', { name: 'Unblock Vic?' });
    await expect(confirmUnblock).toContainText('An earlier match and its messages do not come back.');
    await confirmUnblock.getByRole('button', { name: 'Unblock' }).click();
    await expect(page.getByText('Vic is no longer blocked.')).toBeVisible();
    await expect(blocked.getByText('You have not blocked anyone.')).toBeVisible();
    await expect
      .poll(() => serviceGet(request, auth, `/rest/v1/blocked_users?select=id&blocker_id=eq.${me}`), {
        timeout: 20_000,
      })
      .toEqual([]);
    await page.context().close();
  });
}

/** The backend's API paths: while "offline" the context refuses them too (see offline-replica.spec.ts). */
const API_ROUTE = /\/(?:auth\/v1|rest\/v1|storage\/v1|functions\/v1|sync|realtime\/v1)\//;

test('offline, the likes and their badge open from the replica; seen, a like back and a block wait to reach the server', async ({
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const member = await signUpMember(browser, request, auth, 'liked-offline', {
    baseURL,
    viewport: { width: 390, height: 844 },
  });
  const { page, id: me } = member;
  const likers = await seedLikers(request, auth, me, [
    ['Ida', {}],
    ['Jon', {}],
  ]);
  // The installed app's icon badge, as the page sets it (the App Badging API, recorded here).
  await page.addInitScript(() => {
    const set: (number | 'cleared')[] = [];
    (window as unknown as { appBadges: typeof set }).appBadges = set;
    Navigator.prototype.setAppBadge = async (n?: number) => void set.push(n ?? 0);
    Navigator.prototype.clearAppBadge = async () => void set.push('cleared');
  });
  const appBadge = () =>
    page.evaluate(() => (window as unknown as { appBadges: (number | 'cleared')[] }).appBadges.at(-1));
  const cards = page.getByTestId('received-like');
  await page.goto('/likes');
  await expect(cards).toHaveCount(2, { timeout: 20_000 });
  // A like that arrives while the member is elsewhere is counted on the Likes tab as it syncs.
  const badge = page.getByTestId('tab-likes-badge');
  await expect(badge).toHaveCount(0);
  await page.getByRole('navigation', { name: 'Tabs' }).getByRole('link', { name: 'Discover' }).click();
  Object.assign(likers, await seedLikers(request, auth, me, [['Kim', {}]]));
  await expect(badge).toContainText('1', { timeout: 20_000 });
  await expect.poll(appBadge).toBe(1);
  // A page load shows the count this device showed last while the replica opens.
  await holdReplicaOnNextLoad(page);
  await page.reload();
  await expect(badge).toContainText('1');
  expect(await replicaHasOpened(page)).toBe(false);
  await releaseReplica(page);
  await makeReadyForOffline(page, () => expect(badge).toContainText('1'));

  // No network, the backend refused as well: the page opens with both likers from the replica.
  const context = page.context();
  await context.route(API_ROUTE, (route) => route.abort('internetdisconnected'));
  await context.setOffline(true);
  await page.reload();
  await expect(badge).toContainText('1');
  // Opening the likes lists all three and clears the badge, offline, for good.
  await page
    .getByRole('navigation', { name: 'Tabs' })
    .getByRole('link', { name: /^Likes/ })
    .click();
  await expect(cards).toHaveCount(3);
  await expect(badge).toHaveCount(0);
  await expect.poll(appBadge).toBe('cleared');
  await page.reload();
  await expect(cards).toHaveCount(3);
  await expect(badge).toHaveCount(0);
  await expect(cards.filter({ hasText: 'Ida' })).toContainText('London');
  await expect(page.getByRole('alert')).toHaveCount(0);
  // A like back is kept on the device and takes the card away at once.
  await cards.filter({ hasText: 'Ida' }).getByRole('button', { name: 'Like back' }).click();
  await expect(page.getByText("You've liked them back!")).toBeVisible();
  await expect(cards).toHaveCount(2);
  await page.reload();
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: 'Jon' })).toHaveCount(1);
  // A block too: Jon leaves the list at once.
  await cards.filter({ hasText: 'Jon' }).getByRole('button', { name: 'More actions' }).click();
  await page
    .getByRole('menu', { name: 'More actions for Jon' })
    .getByRole('menuitem', { name: 'Block' })
    .click();
  await page.getByRole('alertdialog', { name: 'Block Jon?' }).getByRole('button', { name: 'Block' }).click();
  await expect(page.getByText('User has been blocked successfully.')).toBeVisible();
  await expect(cards).toHaveCount(1);

  // Back online, it uploads: the server has the like back and the pair's match, and the popup says so (met
  // here, not put away by the page's handler).
  await page.removeLocatorHandler(page.getByRole('button', { name: 'Keep Swiping' }));
  await context.unroute(API_ROUTE);
  await context.setOffline(false);
  await expect.poll(() => countMatchesOf(request, auth, me), { timeout: 30_000 }).toBe(1);
  await expect(page.getByRole('dialog', { name: "It's a Match!" })).toContainText(
    'You and Ida liked each other!',
    {
      timeout: 20_000,
    },
  );
  // The block reached the server with its reason, and Jon's like is gone there too.
  await expect
    .poll(
      () => serviceGet(request, auth, `/rest/v1/blocked_users?select=blocked_id,reason&blocker_id=eq.${me}`),
      {
        timeout: 20_000,
      },
    )
    .toEqual([{ blocked_id: likers['Jon'], reason: 'User blocked from likes' }]);
  expect(
    await serviceGet(
      request,
      auth,
      `/rest/v1/user_interactions?select=id&user_id=eq.${likers['Jon']}&target_id=eq.${me}`,
    ),
  ).toEqual([]);
  // "Seen" reached the server too: it counts no new like, Kim's included.
  const [seen] = await serviceGet<{ likes_seen_at: string | null }[]>(
    request,
    auth,
    `/rest/v1/profiles?select=likes_seen_at&id=eq.${me}`,
  );
  const [kims] = await serviceGet<{ created_at: string }[]>(
    request,
    auth,
    `/rest/v1/user_interactions?select=created_at&user_id=eq.${likers['Kim']}&target_id=eq.${me}`,
  );
  expect(Date.parse(String(seen?.likes_seen_at))).toBeGreaterThanOrEqual(
    Date.parse(String(kims?.created_at)),
  );
  await expect(cards).toHaveCount(1);
  await expect(badge).toHaveCount(0);
  await context.close();
});
