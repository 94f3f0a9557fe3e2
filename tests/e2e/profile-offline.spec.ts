// The profile builder offline: the city comes from the offline list (keyboard combobox), edits made offline are
// kept on the device and shown as pending across a reload, and land on the server once back online; a write
// the server refuses is shown in plain words and the form returns to the server's version.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './support/test.ts';
import { acceptNecessaryCookies, makeEmail, signIn, signUpAndConfirm } from './support/accounts.ts';
import { makeReadyForOffline } from './support/offline.ts';
import {
  holdReplicaOnNextLoad,
  queryReplica,
  releaseReplica,
  replicaHasOpened,
  type ReplicaHandle,
} from './support/replica.ts';
import { getMemberId, getServiceAuth, serviceHeaders, type ServiceAuth } from './support/service-role.ts';

const PENDING_OFFLINE = 'Saved on this device. Your changes upload when you are back online.';

async function countQueued(page: Page): Promise<number | undefined> {
  return (await queryReplica<{ n: number }>(page, 'select count(*) as n from ps_crud'))[0]?.n;
}

async function getServerRow(
  request: APIRequestContext,
  auth: ServiceAuth,
  pathAndQuery: string,
): Promise<Record<string, unknown> | undefined> {
  const res = await request.get(`/rest/v1/${pathAndQuery}`, { headers: serviceHeaders(auth) });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as Record<string, unknown>[])[0];
}

async function pickCity(page: Page, typed: string, option: string) {
  const box = page.getByRole('combobox', { name: 'City' });
  await box.fill(typed);
  await expect(page.getByRole('option', { name: option })).toBeVisible();
  // Keyboard only: the first option is the largest city with that name.
  await box.press('ArrowDown');
  await expect(page.getByRole('option', { name: option })).toHaveAttribute('aria-selected', 'true');
  await box.press('Enter');
  await expect(page.getByText(`Selected: ${option}`)).toBeVisible();
}

async function signUpWithReplica(page: Page, request: APIRequestContext, tag: string): Promise<string> {
  await acceptNecessaryCookies(page);
  await page.addInitScript(() => localStorage.setItem('heartsync.exposeReplica', '1'));
  const email = makeEmail(tag);
  await signUpAndConfirm(page, request, email);
  await expect
    .poll(async () => (await queryReplica<{ id: string }>(page, 'select id from profiles')).length, {
      timeout: 30_000,
    })
    .toBe(1);
  return email;
}

test('profile edits made offline stay pending across a reload and land once back online', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const auth = await getServiceAuth(request, baseURL!);
  const email = await signUpWithReplica(page, request, 'prof-offline');
  const id = await getMemberId(request, auth, email);

  // Online: a city from the offline list, by keyboard, accent-insensitively; stored coarse.
  await expect(page.getByRole('heading', { name: 'Build your profile' })).toBeVisible();
  await page.getByLabel('Name').fill('Olga Offline');
  await page.getByLabel('Date of birth').fill('1990-02-03');
  await page.getByLabel('Gender').selectOption('woman');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  // The sidebar's card follows the saved name at once, and a page load shows it before the replica opens.
  await expect(page.getByTestId('sidebar-name')).toHaveText('Olga Offline');
  await holdReplicaOnNextLoad(page);
  await page.reload();
  await expect(page.getByTestId('sidebar-name')).toHaveText('Olga Offline');
  expect(await replicaHasOpened(page)).toBe(false);
  await releaseReplica(page);
  await page.getByRole('button', { name: 'Continue without photos' }).click();
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByRole('heading', { name: 'Where you are' })).toBeVisible();
  await page.getByRole('combobox', { name: 'City' }).fill('sao pau');
  await expect(page.getByRole('option', { name: 'São Paulo, Brazil' })).toBeVisible();
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
  ).toEqual([]);
  await pickCity(page, 'sao pau', 'São Paulo, Brazil');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByTestId('builder-step')).toHaveText('Step 5 of 6: Who you want to meet');
  await expect
    .poll(async () => (await getServerRow(request, auth, `profiles?id=eq.${id}&select=city`))?.['city'], {
      timeout: 30_000,
    })
    .toBe('São Paulo');
  expect(
    await getServerRow(
      request,
      auth,
      `profiles?id=eq.${id}&select=name,birthday,state,country,location_lat,location_lng`,
    ),
  ).toEqual({
    name: 'Olga Offline',
    birthday: '1990-02-03',
    state: 'São Paulo',
    country: 'Brazil',
    location_lat: -23.5,
    location_lng: -46.6,
  });

  // The rest is edited on My Profile, the whole form on one page.
  await page.goto('/profile');
  // Let the service worker control the page and cache what it needs, then go offline.
  await makeReadyForOffline(page, () =>
    expect(page.getByLabel('Name')).toHaveValue('Olga Offline', { timeout: 30_000 }),
  );
  await context.setOffline(true);

  // Offline: the city list still loads (it ships with the app), edits save to the device and show as pending.
  await pickCity(page, 'zurich', 'Zürich, Zurich, Switzerland');
  await page.getByLabel('Name').fill('Olga Onthego');
  await page.getByLabel('Bio').fill('Written offline on a slow train.');
  // Interests are chips: typed with commas, each added once.
  await page.getByLabel('Add interests').fill('hiking, jazz, hiking');
  await page.getByLabel('Add interests').press('Enter');
  await expect(page.getByRole('list', { name: 'Interests' }).getByRole('listitem')).toHaveText([
    'hiking',
    'jazz',
  ]);
  await page.getByLabel('Height value').fill('172.5');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Kept on this device; it uploads when you are back online.')).toBeVisible();
  await expect(page.getByText(PENDING_OFFLINE).first()).toBeVisible();
  await expect(page.getByTestId('sidebar-name')).toHaveText('Olga Onthego');
  await page.getByLabel('Minimum age').fill('30');
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByText(PENDING_OFFLINE)).toHaveCount(2);
  // Questionnaire answers are kept on the device too, all with one save.
  await page.getByRole('button', { name: 'Answer questions' }).click();
  const firstQuestion = page
    .getByRole('region', { name: /Compatibility questions/ })
    .getByRole('listitem')
    .first();
  await firstQuestion.getByRole('group', { name: 'Your answer' }).getByRole('radio').first().check();
  await page.getByRole('button', { name: 'Save answers' }).click();
  await expect(page.getByText('Answer saved')).toBeVisible();
  await expect(page.getByText(PENDING_OFFLINE)).toHaveCount(3);
  // Photos need the network, and the page says so.
  await expect(page.getByText(/You are offline: new photos upload only when you are online/)).toBeVisible();
  await expect(page.locator('input[type=file]')).toBeDisabled();

  // A reload offline shows the device's version, still pending; the server has not seen it.
  await page.reload();
  await expect(page.getByLabel('Bio')).toHaveValue('Written offline on a slow train.', { timeout: 30_000 });
  await expect(page.getByTestId('sidebar-name')).toHaveText('Olga Onthego');
  await expect(page.getByRole('list', { name: 'Interests' }).getByRole('listitem')).toHaveText([
    'hiking',
    'jazz',
  ]);
  await expect(page.getByText('Selected: Zürich, Zurich, Switzerland')).toBeVisible();
  await expect(page.getByLabel('Minimum age')).toHaveValue('30');
  await expect(page.getByText(PENDING_OFFLINE)).toHaveCount(3);
  await expect(
    page.getByRole('heading', { name: /^Compatibility questions \(1\/\d+ answered\)$/ }),
  ).toBeVisible();
  expect(await countQueued(page)).toBeGreaterThan(0);
  expect(await getServerRow(request, auth, `profiles?id=eq.${id}&select=bio,city`)).toEqual({
    bio: null,
    city: 'São Paulo',
  });

  // Back online: the queue drains, the server holds the edits (arrays as arrays), and the notes go away.
  await context.setOffline(false);
  await expect.poll(() => countQueued(page), { timeout: 60_000 }).toBe(0);
  expect(
    await getServerRow(
      request,
      auth,
      `profiles?id=eq.${id}&select=name,bio,interests,height,city,state,country,location_lat,location_lng`,
    ),
  ).toEqual({
    name: 'Olga Onthego',
    bio: 'Written offline on a slow train.',
    interests: ['hiking', 'jazz'],
    height: 172.5,
    city: 'Zürich',
    state: 'Zurich',
    country: 'Switzerland',
    location_lat: 47.4,
    location_lng: 8.6,
  });
  expect(
    await getServerRow(request, auth, `match_preferences?user_id=eq.${id}&select=min_age,max_age`),
  ).toEqual({ min_age: 30, max_age: 120 });
  expect(
    await getServerRow(request, auth, `profile_answers?user_id=eq.${id}&select=answer,acceptable_answers`),
  ).toEqual({
    answer: 0,
    acceptable_answers: [0],
  });
  await expect(page.getByText(PENDING_OFFLINE)).toHaveCount(0);
  // Others see the city and country, never the position or region.
  expect(await getServerRow(request, auth, `public_profiles?id=eq.${id}&select=city,country,bio`)).toEqual({
    city: 'Zürich',
    country: 'Switzerland',
    bio: 'Written offline on a slow train.',
  });
});

test('a profile edit the server refuses is shown in plain words and the form returns to the saved version', async ({
  page,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const email = await signUpWithReplica(page, request, 'prof-refused');
  const id = await getMemberId(request, auth, email);
  await page.goto('/profile');
  await expect(page.getByLabel('Name')).toHaveValue('Test Member');
  // Another device (or an old app) writes a birthday the SQL refuses; the form itself would not let it through.
  await page.evaluate(
    async ([me]) => {
      const db = (window as unknown as { heartsyncReplica: ReplicaHandle }).heartsyncReplica;
      await db.execute('update profiles set birthday = ?, bio = ? where id = ?', [
        '2015-01-01',
        'Too young to be here',
        me,
      ]);
    },
    [id] as const,
  );
  await expect(page.getByLabel('Bio')).toHaveValue('Too young to be here');
  await expect(page.getByText('We could not save your profile change')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Members must be at least 18 years old.')).toBeVisible();
  await expect.poll(() => countQueued(page), { timeout: 20_000 }).toBe(0);
  // The server's version wins on the device, and the untouched form follows it.
  await expect(page.getByLabel('Bio')).toHaveValue('', { timeout: 20_000 });
  expect(await getServerRow(request, auth, `profiles?id=eq.${id}&select=birthday,bio`)).toEqual({
    birthday: null,
    bio: null,
  });
});

test('a profile edit reloaded at once after typing is still in the form, and saving it keeps it', async ({
  page,
  request,
}) => {
  await signUpWithReplica(page, request, 'prof-unsaved');
  await page.goto('/profile');
  await expect(page.getByLabel('Name')).toHaveValue('Test Member');
  await page.getByLabel('Bio').fill('Half a sentence typed on the bus');
  await page.getByLabel('Career').fill('Ferry pilot');
  // No wait at all between the last keystroke and the reload.
  await page.reload();
  await expect(page.getByLabel('Bio')).toHaveValue('Half a sentence typed on the bus');
  await expect(page.getByLabel('Career')).toHaveValue('Ferry pilot');
  await expect(page.getByTestId('unsaved-restored')).toBeVisible();

  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByTestId('unsaved-restored')).toHaveCount(0);
  await expect
    .poll(async () => (await queryReplica<{ bio: string }>(page, 'select bio from profiles'))[0]?.bio)
    .toBe('Half a sentence typed on the bus');
  await page.reload();
  await expect(page.getByLabel('Bio')).toHaveValue('Half a sentence typed on the bus');
  await expect(page.getByTestId('unsaved-restored')).toHaveCount(0);
});

test('a profile open on two devices: saving one field on each keeps both changes', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  const auth = await getServiceAuth(request, baseURL!);
  const email = await signUpWithReplica(page, request, 'prof-two-devices');
  const id = await getMemberId(request, auth, email);
  await page.goto('/profile');
  await expect(page.getByLabel('Name')).toHaveValue('Test Member');
  // The phone: the member starts on the career and leaves the form open.
  await page.getByLabel('Career').fill('Ferry pilot');

  // The laptop: the bio, saved.
  const laptopContext = await browser.newContext({ baseURL });
  const laptop = await laptopContext.newPage();
  await acceptNecessaryCookies(laptop);
  await signIn(laptop, email);
  await laptop.goto('/profile');
  // A new device: the form waits for its replica's first download, which the phone was given 30 s for
  // (signUpWithReplica); it took 4.6-5.4 s here on an idle 2-core machine, past the default 5 s.
  await expect(laptop.getByLabel('Name')).toHaveValue('Test Member', { timeout: 30_000 });
  await laptop.getByLabel('Bio').fill('Written on the laptop.');
  await laptop.getByRole('button', { name: 'Save profile' }).click();
  await expect
    .poll(async () => (await getServerRow(request, auth, `profiles?id=eq.${id}&select=bio`))?.['bio'], {
      timeout: 20_000,
    })
    .toBe('Written on the laptop.');
  // The phone's copy gets the bio; its form, being edited, keeps what the member typed.
  await expect
    .poll(async () => (await queryReplica<{ bio: string }>(page, 'select bio from profiles'))[0]?.bio, {
      timeout: 20_000,
    })
    .toBe('Written on the laptop.');
  await expect(page.getByLabel('Career')).toHaveValue('Ferry pilot');

  // Saving the career on the phone writes the career only: the laptop's bio stays, and the form shows it.
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect
    .poll(async () => getServerRow(request, auth, `profiles?id=eq.${id}&select=bio,career`), {
      timeout: 20_000,
    })
    .toEqual({ bio: 'Written on the laptop.', career: 'Ferry pilot' });
  await expect(page.getByLabel('Bio')).toHaveValue('Written on the laptop.');
  await laptopContext.close();
});
