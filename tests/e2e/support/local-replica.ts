// Reading a member's local replica from a journey (what this device holds, queued writes included). The app
// exposes it as window.heartsyncReplica when the page's storage asks for it (heartsync.exposeReplica).
import type { Page } from '@playwright/test';

/** Makes every page of `page` expose its replica; call before the first navigation. */
export async function exposeReplica(page: Pick<Page, 'addInitScript'>): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('heartsync.exposeReplica', '1'));
}

/** Rows of the member's local replica (what this device holds, queued writes included). */
export async function countLocalInteractions(page: Page, userId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const db = (
      window as unknown as {
        heartsyncReplica: { get: (sql: string, p: unknown[]) => Promise<{ n: number }> };
      }
    ).heartsyncReplica;
    return (await db.get('select count(*) as n from user_interactions where user_id = ?', [id])).n;
  }, userId);
}
