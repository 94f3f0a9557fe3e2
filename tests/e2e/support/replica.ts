// Reading the page's open local replica in journeys (exposed on window.heartsyncReplica, see src/data/README.md).
import type { Page } from '@playwright/test';

export interface ReplicaHandle {
  getAll<T>(sql: string, params?: unknown[]): Promise<T[]>;
  execute(sql: string, params?: unknown[]): Promise<unknown>;
}

/** Runs SQL on the page's open replica; an empty list while no replica is open. */
export async function queryReplica<T>(page: Page, sql: string, params: unknown[] = []): Promise<T[]> {
  return page.evaluate(
    async ([q, p]) => {
      const db = (window as unknown as { heartsyncReplica?: ReplicaHandle }).heartsyncReplica;
      if (!db) return [] as T[];
      return db.getAll<T>(q, p);
    },
    [sql, params] as const,
  );
}

const HOLD_KEY = 'hs-test-hold-replica';
const holding = new WeakSet<Page>();

/**
 * The page's next load opens its replica only when `releaseReplica` is called: the page's check of the
 * device's storage (the first step of opening it) waits until then. For screens painted before the replica.
 */
export async function holdReplicaOnNextLoad(page: Page): Promise<void> {
  if (!holding.has(page)) {
    holding.add(page);
    await page.addInitScript((key) => {
      if (!sessionStorage.getItem(key)) return;
      sessionStorage.removeItem(key);
      const getDirectory = StorageManager.prototype.getDirectory;
      const held = new Promise<void>((resolve) => {
        (window as unknown as { releaseReplica: () => void }).releaseReplica = resolve;
      });
      StorageManager.prototype.getDirectory = function (this: StorageManager) {
        return held.then(() => getDirectory.call(this));
      };
    }, HOLD_KEY);
  }
  await page.evaluate((key) => sessionStorage.setItem(key, '1'), HOLD_KEY);
}

/** Whether this page load's replica has opened (the app's start mark). */
export async function replicaHasOpened(page: Page): Promise<boolean> {
  return page.evaluate(() => performance.getEntriesByName('hs:replica-open').length > 0);
}

/** Lets a replica held by `holdReplicaOnNextLoad` open. */
export async function releaseReplica(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { releaseReplica: () => void }).releaseReplica());
}
