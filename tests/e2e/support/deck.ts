// Walking a member's discovery deck in a journey. The deck on screen can change under the test at any moment
// (a fresh deck replaces the stored one, the page refreshes it by itself after a profile change), so a journey
// never decides from one look and acts in a later step: "is this the member? no, skip" must be one step, or the
// skip lands on the card that replaced the one looked at (seen in CI: the member searched for was skipped).
import { expect, type Locator, type Page } from './test.ts';

export const deckCard = (page: Page): Locator => page.getByTestId('discovery-card');
export const deckCardOf = (page: Page, memberId: string): Locator =>
  page.locator(`[data-testid="discovery-card"][data-member-id="${memberId}"]`);
export const noMorePeople = (page: Page): Locator => page.getByText('No more people for now');
/** The deck's wait: a fresh deck on its way ("Looking for new people...") or the replica still opening. */
export const deckSettling = (page: Page): Locator => page.locator('#deck-settling');

/** Waits until the deck shows a card or its end, with no fresh deck on its way; returns the card's member. */
export async function settledCard(page: Page): Promise<string | null> {
  await expect(deckCard(page).or(noMorePeople(page))).toBeVisible({ timeout: 30_000 });
  await expect(deckSettling(page)).toBeHidden({ timeout: 30_000 });
  return page.evaluate(
    () => document.querySelector<HTMLElement>('[data-testid="discovery-card"]')?.dataset['memberId'] ?? null,
  );
}

/**
 * Presses Skip only if `memberId` is the card on screen at that instant (checked and clicked in one turn of
 * the page's event loop, so no render can come between). False when the card changed or Skip is disabled.
 */
export async function skipIfShown(page: Page, memberId: string): Promise<boolean> {
  const skipped = await page.evaluate((id) => {
    const shown = document.querySelector<HTMLElement>('[data-testid="discovery-card"]');
    if (shown?.dataset['memberId'] !== id) return false;
    const skip = [...document.querySelectorAll('button')].find(
      (b) => b.textContent?.trim() === 'Skip' && !b.disabled,
    );
    if (!skip) return false;
    skip.click();
    return true;
  }, memberId);
  if (skipped)
    await expect(
      page
        .locator(`[data-testid="discovery-card"]:not([data-member-id="${memberId}"])`)
        .or(noMorePeople(page)),
    ).toBeVisible({ timeout: 20_000 });
  return skipped;
}

/**
 * Skips other cards until `memberId` is on top. When the deck runs out it waits for the page to bring a new
 * one by itself, or, with `lookAgain`, asks for one as a member would.
 */
export async function skipUntilShown(
  page: Page,
  memberId: string,
  { lookAgain = false, maxSteps = 100 }: { lookAgain?: boolean; maxSteps?: number } = {},
): Promise<void> {
  for (let i = 0; i < maxSteps; i++) {
    const shown = await settledCard(page);
    if (shown === memberId) return;
    if (shown === null) {
      if (lookAgain) {
        const next = page.waitForResponse((r) => r.url().includes('/rpc/get_discovery_candidates'));
        // The page may refresh by itself first and hide the button: then the next look sees that deck.
        await page
          .getByRole('button', { name: 'Look again' })
          .click({ timeout: 5_000 })
          .then(() => next)
          .catch(() => undefined);
      } else {
        await expect(deckCard(page)).toBeVisible({ timeout: 30_000 });
      }
      continue;
    }
    await skipIfShown(page, shown);
  }
  await expect(deckCardOf(page, memberId), 'the member in the deck').toBeVisible();
}

/**
 * Goes through the whole deck on screen: `memberId` is never offered. The run's server gathers members from
 * every journey before this one, so a deck open to everyone is long (up to DECK_SIZE, 30 cards, per fetch).
 */
export async function expectNotInDeck(page: Page, memberId: string, maxSteps = 100): Promise<void> {
  for (let i = 0; i < maxSteps; i++) {
    const shown = await settledCard(page);
    if (shown === null) return;
    expect(shown).not.toBe(memberId);
    // Skipped only if it is still the card checked; otherwise the next look checks the new one.
    await skipIfShown(page, shown);
  }
  await expect(noMorePeople(page)).toBeVisible();
}

/**
 * A spot of its own for one test's members, somewhere in a region (the city only names it), so that members
 * an earlier run left in the same database (a repeated run, `--repeat-each`) are out of a deck limited to
 * "Within 5 km". Drawn per test, not per file: repeats in one worker share the file's module state. Two draws
 * land within 5 km of each other about once in a thousand.
 */
export function placeOfItsOwn(region: { city: string; country: string; lat: number; lng: number }): {
  city: string;
  country: string;
  location_lat: number;
  location_lng: number;
} {
  return {
    city: region.city,
    country: region.country,
    location_lat: region.lat + (Math.random() - 0.5) * 2,
    location_lng: region.lng + (Math.random() - 0.5) * 4,
  };
}
