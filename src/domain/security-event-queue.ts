// How the browser sends security events without ever feeding on itself (issue 12): events wait in a queue
// and go in one batch; an event equal to one already waiting is dropped; at most LIMIT_PER_MINUTE leave a
// page a minute; nothing is queued while offline; after a send fails (refused, offline, CSP) nothing is sent
// for BACKOFF_MS and the failure itself is never an event. Pure: the clock, the network state and the
// transport are given, so the rules are tested without a browser.

export interface SecurityEvent {
  event: string;
  details: Record<string, unknown>;
}

export const LIMIT_PER_MINUTE = 20;
export const BATCH_DELAY_MS = 2000;
export const BACKOFF_MS = 60_000;
export const MAX_WAITING = 50;

export interface QueueEnvironment {
  now(): number;
  isOnline(): boolean;
  /** Sends a batch; rejects when the request failed. */
  send(events: SecurityEvent[]): Promise<void>;
  schedule(fn: () => void, ms: number): void;
}

export class SecurityEventQueue {
  private waiting: SecurityEvent[] = [];
  private keys = new Set<string>();
  private sentAt: number[] = [];
  private pausedUntil = 0;
  private scheduled = false;
  private sending = false;

  constructor(private readonly env: QueueEnvironment) {}

  /** Queues an event; answers whether it was kept (false: a duplicate, offline, paused or over the cap). */
  add(event: SecurityEvent): boolean {
    const now = this.env.now();
    if (!this.env.isOnline() || now < this.pausedUntil) return false;
    const key = `${event.event}\u0000${JSON.stringify(event.details)}`;
    if (this.keys.has(key) || this.waiting.length >= MAX_WAITING) return false;
    this.sentAt = this.sentAt.filter((t) => now - t < 60_000);
    if (this.sentAt.length + this.waiting.length >= LIMIT_PER_MINUTE) return false;
    this.waiting.push(event);
    this.keys.add(key);
    if (!this.scheduled) {
      this.scheduled = true;
      this.env.schedule(() => {
        this.scheduled = false;
        void this.flush();
      }, BATCH_DELAY_MS);
    }
    return true;
  }

  /** Sends what waits now (also on pagehide); a failed send drops the batch and pauses the queue. */
  async flush(): Promise<void> {
    if (this.sending || this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    this.keys = new Set();
    if (!this.env.isOnline()) return;
    this.sending = true;
    const now = this.env.now();
    for (let i = 0; i < batch.length; i++) this.sentAt.push(now);
    try {
      await this.env.send(batch);
    } catch {
      // The failure is not an event: logging it would send again, into the same failure.
      this.pausedUntil = this.env.now() + BACKOFF_MS;
    } finally {
      this.sending = false;
    }
  }
}
