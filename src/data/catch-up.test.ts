// When the replica counts as caught up with the server (a checkpoint applied since its connection opened).
import { describe, expect, it, vi } from 'vitest';
import { CatchUpTracker, type CatchUpSource, type CatchUpStatus } from './catch-up.ts';

/** A replica whose sync status the test sets, as PowerSync reports it to its listeners. */
function fakeReplica(initial: CatchUpStatus) {
  let current = initial;
  const listeners = new Set<(s: CatchUpStatus) => void>();
  const source: CatchUpSource = {
    get currentStatus() {
      return current;
    },
    registerListener({ statusChanged }) {
      if (!statusChanged) return () => undefined;
      listeners.add(statusChanged);
      return () => listeners.delete(statusChanged);
    },
  };
  return {
    source,
    report(next: CatchUpStatus) {
      current = next;
      for (const l of listeners) l(next);
    },
    get listenerCount() {
      return listeners.size;
    },
  };
}

const at = (ms: number) => new Date(ms);

describe('CatchUpTracker', () => {
  it('waits for a checkpoint applied while connected: the one kept from an earlier session does not count', () => {
    const replica = fakeReplica({ connected: false, lastSyncedAt: at(1000) });
    const tracker = new CatchUpTracker(replica.source);
    const caughtUp = vi.fn();
    tracker.subscribe(caughtUp);
    // Connected, the kept checkpoint still the newest: the rows may be behind the server.
    replica.report({ connected: true, lastSyncedAt: at(1000) });
    expect(caughtUp).not.toHaveBeenCalled();
    expect(tracker.isCaughtUp).toBe(false);
    replica.report({ connected: true, lastSyncedAt: at(5000) });
    expect(caughtUp).toHaveBeenCalledTimes(1);
    expect(tracker.isCaughtUp).toBe(true);
    // Later checkpoints are not another catch-up.
    replica.report({ connected: true, lastSyncedAt: at(6000) });
    expect(caughtUp).toHaveBeenCalledTimes(1);
  });

  it('counts a first sync ever, and tells a later subscriber at once', () => {
    const replica = fakeReplica({ connected: false });
    const tracker = new CatchUpTracker(replica.source);
    replica.report({ connected: true });
    replica.report({ connected: true, lastSyncedAt: at(2000) });
    const late = vi.fn();
    tracker.subscribe(late);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('catches up again after each reconnection, and not while disconnected', () => {
    const replica = fakeReplica({ connected: true, lastSyncedAt: at(1000) });
    const tracker = new CatchUpTracker(replica.source);
    const caughtUp = vi.fn();
    const unsubscribe = tracker.subscribe(caughtUp);
    replica.report({ connected: true, lastSyncedAt: at(2000) });
    replica.report({ connected: false, lastSyncedAt: at(2000) });
    expect(tracker.isCaughtUp).toBe(false);
    // A checkpoint seen in the status while the connection is down is not a catch-up.
    replica.report({ connected: false, lastSyncedAt: at(2500) });
    expect(caughtUp).toHaveBeenCalledTimes(1);
    replica.report({ connected: true, lastSyncedAt: at(2500) });
    expect(caughtUp).toHaveBeenCalledTimes(1);
    replica.report({ connected: true, lastSyncedAt: at(3000) });
    expect(caughtUp).toHaveBeenCalledTimes(2);
    unsubscribe();
    replica.report({ connected: false, lastSyncedAt: at(3000) });
    replica.report({ connected: true, lastSyncedAt: at(4000) });
    expect(caughtUp).toHaveBeenCalledTimes(2);
    tracker.dispose();
    expect(replica.listenerCount).toBe(0);
  });
});
