// The swipe deck on a phone (issue 20): the card and Like/Skip fit the screen with the tab bar below; the
// photo's sides page through the photos; a short
// drag springs back, a drag left past the threshold skips, "Undo skip" brings that card back, a drag right
// likes. The same journey at the desktop size keeps Like and Skip in view without scrolling, with the words
// about the member beside the photo and above the actions. A reload paints the last card before the replica
// opens, and it waits for the replica before it decides anything. Then / greets the
// signed-in member with their next step.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { acceptNecessaryCookies, expect, makeEmail, signUpAndConfirm } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { deckCard, deckCardOf, placeOfItsOwn, settledCard } from './support/deck.ts';
import { holdReplicaOnNextLoad, releaseReplica, replicaHasOpened } from './support/replica.ts';
import {
  createAccount,
  getMemberId,
  getServiceAuth,
  serviceHeaders,
  setProfile,
} from './support/service-role.ts';
import { test } from './support/test.ts';

test.describe.configure({ timeout: 120_000 });

// Around Akureyri, on a spot drawn per test: with "Within 5 km" this member's deck holds the two people made
// here, whatever other journeys (or earlier runs of this one) left in the database.
const AKUREYRI = { city: 'Akureyri', country: 'Iceland', lat: 65.68, lng: -18.09 };

async function drag(page: Page, dx: number) {
  const box = (await deckCard(page).boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + Math.min(box.height / 2, 200);
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(x + (dx * i) / 8, y + i);
  await page.mouse.up();
}

for (const size of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`swipes decide at ${size.width}x${size.height}; a skip can be undone`, async ({
    page,
    request,
    baseURL,
  }) => {
    await page.setViewportSize(size);
    const here = placeOfItsOwn(AKUREYRI);
    await acceptNecessaryCookies(page);
    const auth = await getServiceAuth(request, baseURL!);
    const email = makeEmail('swipe');
    await signUpAndConfirm(page, request, email);
    const me = await getMemberId(request, auth, email);
    await setProfile(request, auth, me, {
      name: 'Sif Example',
      birthday: '1993-02-02',
      gender: 'woman',
      looking_for: ['man'],
      ...here,
    });
    // Her preferences: men within 5 km (the deck then holds only the two made here).
    const prefs = await request.post('/rest/v1/match_preferences?on_conflict=user_id', {
      headers: { ...serviceHeaders(auth), prefer: 'return=minimal,resolution=merge-duplicates' },
      data: { user_id: me, min_age: 18, max_age: 120, genders: ['man'], max_distance_band: 'under 5 km' },
    });
    expect(prefs.ok(), await prefs.text()).toBe(true);
    for (const [tag, name] of [
      ['odd', 'Oddur Example'],
      ['pall', 'Pall Example'],
    ] as const) {
      const id = await createAccount(request, auth, tag);
      // Two photos each, stored under their folders as the app stores them.
      const photos: string[] = [];
      for (const file of ['pwa-192x192.png', 'pwa-512x512.png']) {
        const key = `${id}/${crypto.randomUUID()}.png`;
        const upload = await request.post(`/storage/v1/object/profile-photos/${key}`, {
          headers: { ...serviceHeaders(auth), 'content-type': 'image/png' },
          data: fs.readFileSync(path.join(import.meta.dirname, '../../public', file)),
        });
        expect(upload.ok(), await upload.text()).toBe(true);
        photos.push(key);
      }
      await setProfile(request, auth, id, {
        photos,
        name,
        birthday: '1991-06-06',
        gender: 'man',
        looking_for: ['woman'],
        bio: 'Hiking, coffee and long summer evenings.',
        interests: ['hiking', 'coffee'],
        ...here,
      });
    }

    // Opening Discover fetches one fresh deck: the replica catching up with her profile (set just above, while
    // another page had it open) is not a change of her profile, and must not fetch a second one.
    const deckFetches: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/rpc/get_discovery_candidates')) deckFetches.push(r.url());
    });
    await page.goto('/find-matches');
    const first = await settledCard(page);
    expect(first).not.toBeNull();
    // The decision never needs a scroll.
    await expect(page.getByRole('button', { name: 'Like', exact: true })).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole('button', { name: 'Skip', exact: true })).toBeInViewport({ ratio: 1 });
    if (size.width < 768) {
      const tabs = page.getByRole('navigation', { name: 'Tabs' });
      await expect(tabs).toBeVisible();
      await expect(tabs.getByRole('link', { name: 'Discover' })).toHaveAttribute('aria-current', 'page');
      await expect(page.getByRole('navigation', { name: 'Tabs' })).toBeInViewport({ ratio: 1 });
    } else {
      await expect(page.getByRole('navigation', { name: 'Tabs' })).toBeHidden();
      // On a laptop the words about him stand beside the photo: the compatibility line and his bio show
      // above the actions, not under them, without a scroll.
      const actionsTop = (await page.getByTestId('deck-actions').boundingBox())!.y;
      for (const words of [
        deckCard(page).getByText(/^\d+% compatible$/),
        deckCard(page).getByText('Hiking, coffee and long summer evenings.'),
      ]) {
        const box = (await words.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(actionsTop);
      }
    }
    // The words about him are no tab stop while they fit; in a window too low for them they scroll beside
    // the photo, and then the region takes one so a keyboard can scroll it.
    const about = deckCard(page).getByRole('region', { name: /^About / });
    await expect(about).not.toHaveAttribute('tabindex');
    if (size.width >= 1024) {
      await page.setViewportSize({ width: size.width, height: 400 });
      await expect(about).toHaveAttribute('tabindex', '0');
      await page.setViewportSize(size);
      await expect(about).not.toHaveAttribute('tabindex');
    }

    // The photo's sides page through the photos.
    await page.getByRole('button', { name: 'Next photo' }).click();
    await expect(page.getByRole('button', { name: 'Show photo 2' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'Previous photo' }).click();
    await expect(page.getByRole('button', { name: 'Show photo 1' })).toHaveAttribute('aria-pressed', 'true');

    // A short drag springs back.
    await drag(page, 40);
    await expect(page.getByTestId('swipe-card')).toHaveAttribute('data-drag', '0');
    expect(await settledCard(page)).toBe(first);

    // Left past the threshold: skipped, and the next card comes.
    // (A card decides nothing while a fresh deck is on its way: wait until Skip is live, as a member would.)
    await expect(page.getByRole('button', { name: 'Skip', exact: true })).toBeEnabled();
    await drag(page, -220);
    await expect
      .poll(() =>
        page.evaluate(
          () => document.querySelector<HTMLElement>('[data-testid="discovery-card"]')?.dataset['memberId'],
        ),
      )
      .not.toBe(first);
    await page.getByRole('button', { name: 'Undo skip' }).click();
    await expect(page.locator(`[data-testid="discovery-card"][data-member-id="${first}"]`)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Undo skip' })).toHaveCount(0);

    // Right past the threshold: liked.
    await expect(page.getByRole('button', { name: 'Like', exact: true })).toBeEnabled();
    await drag(page, 220);
    await expect(page.getByText('Like sent!', { exact: true })).toBeVisible();
    await expect(page.locator(`[data-testid="discovery-card"][data-member-id="${first}"]`)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    expect(deckFetches).toHaveLength(1);

    // A page load paints the cards this device showed last while the replica opens (held here) and asks the
    // server for a fresh deck meanwhile; the card takes no like or skip until the replica's own deck is read.
    const next = await settledCard(page);
    expect(next).not.toBeNull();
    expect(next).not.toBe(first);
    await holdReplicaOnNextLoad(page);
    const asked = page.waitForRequest((r) => r.url().includes('/rpc/get_discovery_candidates'));
    await page.reload();
    await expect(deckCardOf(page, next!)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Like', exact: true })).toBeDisabled();
    await asked;
    expect(await replicaHasOpened(page)).toBe(false);
    await releaseReplica(page);
    expect(await settledCard(page)).toBe(next);
    await expect(page.getByRole('button', { name: 'Like', exact: true })).toBeEnabled();

    // At / a signed-in member is greeted with their next step, not asked to sign up.
    await page.goto('/');
    await expect(page.getByTestId('member-welcome')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Start Your Journey' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Discover people' }).click();
    await expect(page).toHaveURL(/\/find-matches$/);
  });
}
