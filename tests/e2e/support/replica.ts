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
