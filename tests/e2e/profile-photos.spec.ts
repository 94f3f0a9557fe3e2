// A member's photos at both sizes, as the grid dating apps use: three added at once fill three of six slots, one
// becomes the main photo, one moves a place, and one is removed after a yes (Cancel keeps it); the server's
// profile follows each step and a removed photo's file is gone from storage.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect } from './support/accounts.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { serviceGet, serviceHeaders } from './support/service-role.ts';
import { getServiceAuth, signUpMember } from './support/two-members.ts';
import { test } from './support/test.ts';

test.describe.configure({ timeout: 120_000 });

/** Three small PNG files of different colours: red, green, blue. */
async function makePhotos(): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hs-photos-'));
  const files: string[] = [];
  for (const [name, rgb] of [
    ['red', { r: 200, g: 40, b: 40 }],
    ['green', { r: 40, g: 160, b: 60 }],
    ['blue', { r: 40, g: 60, b: 200 }],
  ] as const) {
    const file = path.join(dir, `${name}.png`);
    await sharp({ create: { width: 600, height: 800, channels: 3, background: rgb } })
      .png()
      .toFile(file);
    files.push(file);
  }
  return files;
}

for (const size of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`photos: add three, make one main, move one, remove one after a yes at ${size.width}x${size.height}`, async ({
    browser,
    request,
    baseURL,
  }) => {
    const auth = await getServiceAuth(request, baseURL!);
    const { page, id: me } = await signUpMember(browser, request, auth, 'photos', {
      baseURL,
      viewport: size,
    });
    const serverPhotos = async () =>
      (
        await serviceGet<{ photos: string[] }[]>(request, auth, `/rest/v1/profiles?select=photos&id=eq.${me}`)
      )[0]!.photos;

    const fileStatus = async (key: string) =>
      (
        await request.get(`/storage/v1/object/authenticated/profile-photos/${key}`, {
          headers: serviceHeaders(auth),
        })
      ).status();

    await page.goto('/profile');
    const section = page.getByRole('region', { name: /^Photos/ });
    await expect(section.getByRole('heading', { name: 'Photos (0/6)' })).toBeVisible({ timeout: 20_000 });
    // The form shows only once her own row is on the device: her name is there as soon as the photos are, read
    // at once and not waited for (on a blank form the photos below were refused for the missing name).
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Test Member');
    await section.locator('input[type=file]').setInputFiles(await makePhotos());
    await expect(section.getByRole('heading', { name: 'Photos (3/6)' })).toBeVisible({ timeout: 30_000 });
    await expect.poll(async () => (await serverPhotos()).length, { timeout: 20_000 }).toBe(3);
    const [red, green, blue] = (await serverPhotos()) as [string, string, string];
    expect(await fileStatus(blue)).toBe(200);
    // The three photos in a row of three; the main one is marked, and an "Add photos" tile follows them.
    const grid = section.getByRole('list', { name: 'Your photos' });
    const tiles = grid.getByRole('listitem');
    await expect(tiles).toHaveCount(4);
    await expect(tiles.first().getByText('Main', { exact: true })).toBeVisible();
    const tops = await Promise.all(
      [0, 1, 2].map(async (i) => Math.round((await tiles.nth(i).boundingBox())!.y)),
    );
    expect(new Set(tops).size).toBe(1);
    await expect(section.getByText('Add photos')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // The blue one becomes the main photo; then the red one (now second) moves a place later.
    await section.getByRole('button', { name: 'Make photo 3 your main photo' }).click();
    await expect.poll(serverPhotos, { timeout: 20_000 }).toEqual([blue, red, green]);
    await section.getByRole('button', { name: 'Move photo 2 later' }).click();
    await expect.poll(serverPhotos, { timeout: 20_000 }).toEqual([blue, green, red]);
    await section.getByRole('button', { name: 'Move photo 3 earlier' }).click();
    await expect.poll(serverPhotos, { timeout: 20_000 }).toEqual([blue, red, green]);

    // Removing asks first: Cancel keeps it; Remove takes it off the profile and deletes its file.
    const confirm = page.getByRole('alertdialog', { name: 'Remove your main photo?' });
    await section.getByRole('button', { name: 'Remove photo 1' }).click();
    await expect(confirm).toContainText('your next photo becomes your main one');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    expect(await serverPhotos()).toEqual([blue, red, green]);
    await section.getByRole('button', { name: 'Remove photo 1' }).click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect(section.getByRole('heading', { name: 'Photos (2/6)' })).toBeVisible();
    await expect.poll(serverPhotos, { timeout: 20_000 }).toEqual([red, green]);
    await expect.poll(() => fileStatus(blue), { timeout: 20_000 }).not.toBe(200);
    expect(await fileStatus(red)).toBe(200);

    // Preview: her profile as other members see it (the public card, its two photos once synced back).
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('dialog', { name: /^Test/ });
    await expect(preview).toContainText('This is how other members see your profile.');
    await expect(preview.getByRole('list', { name: 'Photos of Test' }).getByRole('img')).toHaveCount(2, {
      timeout: 20_000,
    });
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.press('Escape');
    await expect(preview).toHaveCount(0);
    await page.context().close();
  });
}
