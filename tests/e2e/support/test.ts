// The `test` every journey uses: Playwright's, with a guard that fails the journey when any page of any of
// its browser contexts logs a request or resource refused by the Content Security Policy (issue 12: the app
// must work at whatever address it is opened at, and a refused request is how that breaks). The contexts a
// journey opens itself (a second member, a second device) are closed when it ends: Playwright closes only
// its own `context`, and the browser lives for the whole lane, so every member a journey left signed in
// went on running (sync stream, realtime socket, presence, timers) beside all the journeys after it.
// When a journey fails, the last lines its pages logged (console, uncaught errors, failed or refused requests)
// are printed with the failure: a flake seen once in CI is otherwise gone with its run.
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';

export { expect };
export type * from '@playwright/test';

const CSP_REFUSAL = /Content Security Policy/i;
/** How many of the pages' last log lines a failed journey prints. */
const LOG_TAIL = 150;

export const test = base.extend<{ cspGuard: void }>({
  cspGuard: [
    async ({ browser, context }, use, testInfo) => {
      const refusals: string[] = [];
      const log: string[] = [];
      const started = Date.now();
      let pageCount = 0;
      const watchPage = (p: Page) => {
        const tag = `page ${++pageCount}`;
        const note = (line: string) => {
          log.push(`${((Date.now() - started) / 1000).toFixed(1)}s ${tag} ${line}`);
          if (log.length > LOG_TAIL) log.shift();
        };
        p.on('console', (m) => {
          if (CSP_REFUSAL.test(m.text())) refusals.push(`${p.url()}: ${m.text()}`);
          note(`${m.type()}: ${m.text()}`);
        });
        p.on('pageerror', (e) => note(`uncaught: ${e.message}`));
        p.on('framenavigated', (f) => {
          if (f === p.mainFrame()) note(`at ${f.url()}`);
        });
        p.on('requestfailed', (r) =>
          note(`failed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`),
        );
        p.on('response', (r) => {
          if (r.status() >= 400) note(`${r.status()}: ${r.request().method()} ${r.url()}`);
        });
      };
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
        if (testInfo.status !== testInfo.expectedStatus && log.length > 0)
          console.log(`The pages' last ${log.length} log lines:\n${log.join('\n')}`);
      }
      expect(refusals, 'requests refused by the Content Security Policy').toEqual([]);
    },
    { auto: true },
  ],
});
