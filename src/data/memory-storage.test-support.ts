// An in-memory `Storage` for unit tests of code that keeps things in local storage; `full` makes every write
// fail as a full store does (QuotaExceededError).

export class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  full = false;
  get length(): number {
    return this.items.size;
  }
  key(i: number): string | null {
    return [...this.items.keys()][i] ?? null;
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    if (this.full) throw new DOMException('quota', 'QuotaExceededError');
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  clear(): void {
    this.items.clear();
  }
}

/**
 * Gives the code under test a `window.localStorage` of its own before each case (a new, empty store), and takes
 * the window away after it; returns a getter for the case's store.
 */
export function withMemoryLocalStorage(hooks: {
  beforeEach: (fn: () => void) => void;
  afterEach: (fn: () => void) => void;
}): () => MemoryStorage {
  let storage = new MemoryStorage();
  hooks.beforeEach(() => {
    storage = new MemoryStorage();
    (globalThis as unknown as { window: unknown }).window = { localStorage: storage };
  });
  hooks.afterEach(() => {
    delete (globalThis as unknown as { window?: unknown }).window;
  });
  return () => storage;
}
