import { afterEach, describe, expect, it } from 'vitest';
import { localStore, removeKeysWithPrefix } from './local-storage.ts';
import { MemoryStorage } from './memory-storage.test-support.ts';

function useWindow(win: object) {
  (globalThis as unknown as { window: unknown }).window = win;
}

describe('local storage', () => {
  afterEach(() => {
    delete (globalThis as unknown as { window?: unknown }).window;
  });

  it('removes every key under a prefix, neighbours included, and leaves the others', () => {
    const storage = new MemoryStorage();
    useWindow({ localStorage: storage });
    for (const k of ['a.1', 'a.2', 'b.1', 'a.3', 'ab', 'a.4']) storage.setItem(k, 'x');
    removeKeysWithPrefix('a.');
    expect(Array.from({ length: storage.length }, (_, i) => storage.key(i))).toEqual(['b.1', 'ab']);
  });

  it('is absent, and sweeping does nothing, where the browser refuses storage', () => {
    useWindow(
      Object.defineProperty({}, 'localStorage', {
        get() {
          throw new DOMException('denied', 'SecurityError');
        },
      }),
    );
    expect(localStore()).toBeUndefined();
    expect(() => removeKeysWithPrefix('a.')).not.toThrow();
  });
});
