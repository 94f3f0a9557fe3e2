// Getting a page ready to go offline in journeys: the service worker controls it and has booted it once.
import { expect, type Page } from '@playwright/test';

/**
 * Lets the service worker control the page and boot it once (its config and lazy chunks go through the
 * worker's caches), so a later offline reload does not race the first caching. `booted` waits for what the
 * page shows once it has rendered.
 */
export async function makeReadyForOffline(page: Page, booted: () => Promise<void>): Promise<void> {
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await booted();
  await expect
    .poll(() => page.evaluate(async () => (await caches.match('/app-config.json')) !== undefined), {
      timeout: 30_000,
    })
    .toBe(true);
}
