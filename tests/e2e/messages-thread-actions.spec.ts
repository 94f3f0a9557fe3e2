// The conversation header's actions: on a phone, Report and Block wait in a More menu (closed by Escape, a tap
// outside or a choice); on a wider screen they are words. Blocking asks first in the app's own dialog (never
// the browser's), and a cancelled block changes nothing.
import { expect, test } from './support/test.ts';
import { getServiceAuth, serviceGet } from './support/service-role.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { makeMatchedPair, openConversation } from './support/two-members.ts';

test('report and block from a conversation: a More menu on a phone, words on a wider screen, our own confirmation', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const auth = await getServiceAuth(request, baseURL!);
  const [ines, jon] = await makeMatchedPair(
    browser,
    request,
    auth,
    ['Ines', 'Jon'],
    [{ viewport: { width: 390, height: 844 } }, { viewport: { width: 1280, height: 800 } }],
  );
  // No browser dialog may open: the app asks in its own.
  const browserDialogs: string[] = [];
  for (const page of [ines.page, jon.page])
    page.on('dialog', (d) => {
      browserDialogs.push(d.message());
      void d.dismiss();
    });

  // A wider screen shows the words, no menu.
  await openConversation(jon.page, 'Ines');
  await expect(jon.page.getByRole('button', { name: 'Report', exact: true })).toBeVisible();
  await expect(jon.page.getByRole('button', { name: 'Block', exact: true })).toBeVisible();
  await expect(jon.page.getByRole('button', { name: 'More actions' })).toBeHidden();

  // A phone: the header keeps the calls and the game, the rest is in More.
  await openConversation(ines.page, 'Jon');
  const page = ines.page;
  await expect(page.getByRole('button', { name: 'Report', exact: true })).toBeHidden();
  const more = page.getByRole('button', { name: 'More actions' });
  const menu = page.getByRole('menu', { name: 'More actions for Jon' });
  await more.click();
  await expect(menu).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await more.click();
  await page.mouse.click(200, 500);
  await expect(menu).toHaveCount(0);

  // Report opens the report dialog; Block asks first, and Cancel changes nothing.
  await more.click();
  await menu.getByRole('menuitem', { name: 'Report' }).click();
  await expect(page.getByRole('dialog', { name: 'Report Jon' })).toBeVisible();
  await page.keyboard.press('Escape');
  await more.click();
  await menu.getByRole('menuitem', { name: 'Block' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Block Jon?' });
  await expect(confirm).toContainText(
    'You will no longer see each other or be able to message. You can unblock them in Account settings.',
  );
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  const blocks = () =>
    serviceGet<unknown[]>(request, auth, `/rest/v1/blocked_users?select=id&blocker_id=eq.${ines.id}`);
  expect(await blocks()).toEqual([]);

  await more.click();
  await menu.getByRole('menuitem', { name: 'Block' }).click();
  await confirm.getByRole('button', { name: 'Block' }).click();
  await expect(page.getByText('You blocked Jon.', { exact: true })).toBeVisible();
  // The thread closes at once, from the replica; the block uploads right after (decision 0108).
  await expect(
    page.getByRole('note').filter({ hasText: 'You blocked Jon. Messaging is closed.' }),
  ).toBeVisible();
  await expect.poll(async () => (await blocks()).length, { timeout: 30_000 }).toBe(1);
  await expect(more).toHaveCount(0, { timeout: 30_000 });
  expect(browserDialogs).toEqual([]);
});
