// Visual regression: the main screens at 390x844 and 1280x800 in every theme, compared with the screenshots
// kept in tests/e2e/visual.spec.ts-snapshots (update them on purpose with `npm run test:e2e -- visual
// --update-snapshots`, and look at each changed picture before committing it). Content is made
// deterministic: the journey's own members in a town no other journey uses, fixed ages, and the
// parts that change by themselves (times, toasts) hidden by visual.css.
import path from 'node:path';
import sharp from 'sharp';
import { getAvatarSvg } from '../../server/demo/seed-demo.ts';
import { THEMES } from '../../src/ui/themes.ts';
import { expect, test, type Page } from './support/test.ts';
import { signUpAndConfirm, makeEmail } from './support/accounts.ts';
import { deckCard, placeOfItsOwn, settledCard } from './support/deck.ts';
import {
  createAccount,
  getMemberId,
  getServiceAuth,
  serviceGet,
  serviceHeaders,
  serviceWrite,
  setProfile,
} from './support/service-role.ts';
import { newMemberPage } from './support/two-members.ts';

const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
const STYLE = path.join(import.meta.dirname, 'support', 'visual.css');
/** Around Reykjavík: Mia's deck ("Within 5 km") holds only this run's Kari and Leo, drawn a spot of their own. */
const ICELAND = { city: 'Reykjavík', country: 'Iceland', lat: 64.1, lng: -21.9 };

// The hiding styles are injected inline, which the app's CSP rightly refuses; the CSP has journeys of its own.
test.use({ bypassCSP: true });

/** A birthday that keeps the same age whenever the test runs. */
function birthdayAged(years: number): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCMonth(d.getUTCMonth() - 2);
  return d.toISOString().slice(0, 10);
}

async function useTheme(page: Page, theme: string) {
  await page.evaluate((t) => {
    localStorage.setItem('heartsync.theme', t);
    localStorage.removeItem('heartsync.darkMode');
    localStorage.setItem('heartsync.lovyWelcomeShown', '2026-01-01T00:00:00.000Z');
    // The replica on window, to wait for its sync connection (a page connecting is not the page at rest).
    localStorage.setItem('heartsync.exposeReplica', '1');
  }, theme);
}

/**
 * Waits until the member's replica is connected to the sync service and holds the server's rows: the screen as
 * it is at rest. Connected alone is not enough: a replica whose first sync never finished (the journey moved on
 * before it did) is connected while it still downloads and applies its first checkpoint, and shows a screen
 * without its rows meanwhile (CI: the deck's preferences line without the saved preferences, one line shorter).
 */
async function waitForSync(page: Page) {
  await page.waitForFunction(
    () => {
      const status = (
        window as unknown as {
          heartsyncReplica?: { currentStatus?: { connected?: boolean; hasSynced?: boolean } };
        }
      ).heartsyncReplica?.currentStatus;
      return status?.connected === true && status.hasSynced === true;
    },
    undefined,
    { timeout: 30_000 },
  );
}

async function snap(page: Page, name: string) {
  await expect(page).toHaveScreenshot(`${name}.png`, {
    stylePath: STYLE,
    maxDiffPixelRatio: 0.01,
    animations: 'disabled',
  });
}

test('public screens in every theme at both sizes', async ({ page }) => {
  test.setTimeout(180_000);
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const { name: theme } of THEMES) {
      await page.goto('/login');
      await useTheme(page, theme);
      await page.reload();
      await expect(page.getByRole('heading', { name: /sign in|welcome back/i }).first()).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      await snap(page, `login-${theme}-${size.width}`);
    }
  }
});

test('member screens in every theme at both sizes', async ({ browser, request, baseURL }) => {
  test.setTimeout(420_000);
  const here = placeOfItsOwn(ICELAND);
  const auth = await getServiceAuth(request, baseURL!);
  const page = await newMemberPage(browser, { bypassCSP: true });
  const email = makeEmail('vis-mia');
  await signUpAndConfirm(page, request, email);
  const me = await getMemberId(request, auth, email);
  await setProfile(request, auth, me, {
    name: 'Mia Example',
    birthday: birthdayAged(29),
    gender: 'woman',
    looking_for: ['man'],
    relationship_goals: 'long-term',
    bio: 'Sea swims, sourdough and slow Sunday mornings.',
    interests: ['swimming', 'baking', 'hiking', 'jazz'],
    languages: ['English', 'Icelandic'],
    career: 'Marine biologist',
    ...here,
  });
  const prefs = await request.post('/rest/v1/match_preferences?on_conflict=user_id', {
    headers: { ...serviceHeaders(auth), prefer: 'return=minimal,resolution=merge-duplicates' },
    data: { user_id: me, min_age: 25, max_age: 40, genders: ['man'], max_distance_band: 'under 5 km' },
  });
  expect(prefs.ok(), await prefs.text()).toBe(true);

  // Two men in town: Kari for the deck (with a face), Leo already matched, with a short conversation.
  const people: Record<string, string> = {};
  for (const [name, hue] of [
    ['Kari', 210],
    ['Leo', 30],
  ] as const) {
    const id = await createAccount(request, auth, `vis-${name.toLowerCase()}`);
    const photos: string[] = [];
    for (const n of [0, 1]) {
      const key = `${id}/face-${n}.webp`;
      const face = await sharp(Buffer.from(getAvatarSvg({ name: `${name} Example`, gender: 'man', hue }, n)))
        .webp({ quality: 80 })
        .toBuffer();
      const upload = await request.post(`/storage/v1/object/profile-photos/${key}`, {
        headers: { ...serviceHeaders(auth), 'content-type': 'image/webp' },
        data: face,
      });
      expect(upload.ok(), await upload.text()).toBe(true);
      photos.push(key);
    }
    await setProfile(request, auth, id, {
      name: `${name} Example`,
      photos,
      birthday: birthdayAged(32),
      gender: 'man',
      looking_for: ['woman'],
      relationship_goals: 'long-term',
      bio: 'Mountains on weekends, bad puns on weekdays.',
      interests: ['hiking', 'jazz', 'coffee'],
      career: 'Sound engineer',
      ...here,
    });
    people[name] = id;
  }
  for (const [from, to] of [
    [me, people['Leo']!],
    [people['Leo']!, me],
  ])
    await serviceWrite(request, auth, 'post', '/rest/v1/user_interactions', {
      user_id: from,
      target_id: to,
      interaction_type: 'like',
    });
  const [conversation] = await serviceGet<{ id: string }[]>(
    request,
    auth,
    `/rest/v1/conversations?select=id&or=(participant1_id.eq.${me},participant2_id.eq.${me})`,
  );
  expect(conversation).toBeDefined();
  for (const [sender, text] of [
    [people['Leo']!, 'Hi Mia! A marine biologist, that is a first for me. Seen any whales lately?'],
    [me, 'Two humpbacks last week, right by the harbour. Do you hike much?'],
    [people['Leo']!, 'Every weekend I can. Esja on Saturday, if the weather holds?'],
  ] as const)
    await serviceWrite(request, auth, 'post', '/rest/v1/messages', {
      conversation_id: conversation!.id,
      sender_id: sender,
      recipient_id: sender === me ? people['Leo'] : me,
      content: text,
    });

  // The match popup and the first-visit welcome are moments, not screens: seen once here, then gone.
  await page.goto('/find-matches');
  await expect(deckCard(page)).toBeVisible({ timeout: 30_000 });

  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const { name: theme } of THEMES) {
      await useTheme(page, theme);
      await page.goto('/find-matches');
      expect(await settledCard(page)).toBe(people['Kari']);
      await waitForSync(page);
      // What the replica holds (her saved preferences, the unread badge) and the photo itself, not the
      // placeholder avatar shown while its URL is signed (also a complete image).
      await expect(page.getByText('Your preferences: ages 25-40 · within 5 km · Man')).toBeVisible();
      const photo = deckCard(page).getByRole('img').first();
      await expect(photo).toHaveAttribute('src', /\/storage\/v1\/object\/sign\//);
      await expect(photo).toHaveJSProperty('complete', true);
      await snap(page, `discover-${theme}-${size.width}`);

      await page.goto(`/messages?c=${conversation!.id}`);
      await expect(
        page.getByRole('list', { name: 'Messages' }).getByText('Esja on Saturday, if the weather holds?'),
      ).toBeVisible({ timeout: 30_000 });
      await waitForSync(page);
      await snap(page, `thread-${theme}-${size.width}`);

      await page.goto('/profile');
      await expect(page.getByLabel('Name')).toHaveValue('Mia Example', { timeout: 30_000 });
      await waitForSync(page);
      await snap(page, `profile-${theme}-${size.width}`);
    }
  }
});
