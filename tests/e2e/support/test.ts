// The `test` every journey uses: Playwright's, with a guard that fails the journey when any page of any of
// its browser contexts logs a request or resource refused by the Content Security Policy (issue 12: the app
// must work at whatever address it is opened at, and a refused request is how that breaks). The contexts a
// journey opens itself (a second member, a second device) are closed when it ends: Playwright closes only
// its own `context`, and the browser lives for the whole lane, so every member a journey left signed in
// went on running (sync stream, realtime socket, presence, timers) beside all the journeys after it.
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';

export { expect };
export type * from '@playwright/test';

const CSP_REFUSAL = /Content Security Policy/i;

export const test = base.extend<{ cspGuard: void }>({
  cspGuard: [
    async ({ browser, context }, use) => {
      const refusals: string[] = [];
      const watchPage = (p: Page) =>
        p.on('console', (m) => {
          if (CSP_REFUSAL.test(m.text())) refusals.push(`${p.url()}: ${m.text()}`);
        });
      const watchContext = (c: BrowserContext) => {
        c.pages().forEach(watchPage);
        c.on('page', watchPage);
      };
      watchContext(context);
      // Journeys of two members open contexts of their own: watch those as well.
      const newContext = browser.newContext.bind(browser);
      const opened: BrowserContext[] = [];
      browser.newContext = async (...args: Parameters<typeof newContext>) => {
        const c = await newContext(...args);
        opened.push(c);
        watchContext(c);
        return c;
      };
      try {
        await use();
      } finally {
        browser.newContext = newContext;
        // Closing one already closed does nothing.
        await Promise.all(opened.map((c) => c.close().catch(() => undefined)));
      }
      expect(refusals, 'requests refused by the Content Security Policy').toEqual([]);
    },
    { auto: true },
  ],
});
