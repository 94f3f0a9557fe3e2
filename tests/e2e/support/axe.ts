// Accessibility in journeys: axe-core on the page as it is now, failing on any serious or critical violation.
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  // Judged on the settled look: a colour read in the middle of a transition (a button fading in as it turns
  // enabled, seen in CI on a loaded machine) is neither the look before nor after. Endless ones are left
  // running.
  // (At most 2 s: a paused one never finishes.)
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
