// When the replica has caught up with the server: it applied a checkpoint after its sync connection opened.
// Until then it holds what the device kept from its last session, possibly behind what the server has (her
// profile saved on another device a minute ago); from then on its rows are the server's, plus her own writes.
// A screen comparing "what the replica says now" with "what the server used" waits for this (the deck's
// refresh-on-change, features/discovery).

/** The part of PowerSync's SyncStatus read here. */
export interface CatchUpStatus {
  connected: boolean;
  lastSyncedAt?: Date | undefined;
}

/** The part of PowerSyncDatabase read here. */
export interface CatchUpSource {
  readonly currentStatus: CatchUpStatus;
  registerListener(listener: { statusChanged?: (status: CatchUpStatus) => void }): () => void;
}

/**
 * Follows one replica's sync status: caught up once a checkpoint is applied while connected, no longer once
 * the connection closes (a checkpoint kept from before the page opened does not count).
 */
export class CatchUpTracker {
  private lastSynced: number | undefined;
  private caughtUp = false;
  private readonly listeners = new Set<() => void>();
  private readonly stop: () => void;

  constructor(source: CatchUpSource) {
    this.lastSynced = source.currentStatus.lastSyncedAt?.getTime();
    this.stop = source.registerListener({ statusChanged: (s) => this.update(s) });
  }

  get isCaughtUp(): boolean {
    return this.caughtUp;
  }

  private update(status: CatchUpStatus): void {
    const synced = status.lastSyncedAt?.getTime();
    const applied = synced !== undefined && synced !== this.lastSynced;
    this.lastSynced = synced;
    if (!status.connected) {
      this.caughtUp = false;
      return;
    }
    if (!applied || this.caughtUp) return;
    this.caughtUp = true;
    for (const listener of [...this.listeners]) listener();
  }

  /**
   * Calls `listener` each time the replica catches up (after each reconnection), and at once when it already
   * has. Returns the unsubscribe.
   */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    if (this.caughtUp) listener();
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.stop();
    this.listeners.clear();
  }
}
