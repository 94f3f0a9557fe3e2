// Components that ask the replica the same question share one watched query (decision 0091): the match list
// page and the match popup both read the member's matches, and each would otherwise queue its own run on the
// database worker, so the page waited behind every other query of the first screen for a second copy of an
// answer the popup already had.

/** An answer of a watched query: its rows, or the error of its last run. */
export interface WatchAnswer<T> {
  data: readonly T[];
  error: Error | undefined;
}

/** What of a watched query (the engine's `db.query(...).watch(...)`) this module uses. */
export interface WatchedQueryLike<T> {
  registerListener(listener: {
    onStateChange: (state: { isLoading: boolean; data: readonly T[]; error?: Error | null }) => void;
  }): () => void;
  close(): Promise<void> | void;
}

interface Shared {
  listeners: Set<(answer: WatchAnswer<unknown>) => void>;
  last: WatchAnswer<unknown> | undefined;
  stop: () => void;
}

const byOwner = new WeakMap<object, Map<string, Shared>>();

/**
 * Listens to the watched query of `owner` (a database) under `key` (the SQL, its parameters and what
 * re-runs it), opening it with `open` unless another listener already did; a listener that joins later gets
 * the last answer at once. The query closes when its last listener leaves. Loading states are not passed
 * on: a listener hears the first answer and each one after.
 */
export function listenShared<T>(
  owner: object,
  key: string,
  open: () => WatchedQueryLike<T>,
  listener: (answer: WatchAnswer<T>) => void,
): () => void {
  let watches = byOwner.get(owner);
  if (!watches) {
    watches = new Map();
    byOwner.set(owner, watches);
  }
  let shared = watches.get(key);
  if (!shared) {
    const query = open();
    const created: Shared = { listeners: new Set(), last: undefined, stop: () => undefined };
    const unregister = query.registerListener({
      onStateChange: (next) => {
        if (next.isLoading && !next.error) return;
        const answer = { data: next.data, error: next.error ?? undefined };
        created.last = answer;
        for (const l of [...created.listeners]) l(answer);
      },
    });
    created.stop = () => {
      unregister();
      void query.close();
    };
    watches.set(key, created);
    shared = created;
  }
  const own = shared;
  const heard = listener as (answer: WatchAnswer<unknown>) => void;
  own.listeners.add(heard);
  if (own.last) heard(own.last);
  return () => {
    if (!own.listeners.delete(heard) || own.listeners.size > 0) return;
    if (watches.get(key) === own) watches.delete(key);
    own.stop();
  };
}
