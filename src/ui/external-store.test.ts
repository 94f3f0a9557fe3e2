import { describe, expect, it, vi } from 'vitest';
import { createStore } from './external-store.ts';

describe('createStore', () => {
  it('hands out its value and tells subscribers of each change', () => {
    const store = createStore(1);
    const heard = vi.fn();
    const stop = store.subscribe(heard);
    expect(store.get()).toBe(1);
    store.set(2);
    expect(store.get()).toBe(2);
    expect(heard).toHaveBeenCalledTimes(1);
    stop();
    store.set(3);
    expect(heard).toHaveBeenCalledTimes(1);
    expect(store.get()).toBe(3);
  });

  it('tells nobody when the same value is set again', () => {
    const same = { a: 1 };
    const store = createStore(same);
    const heard = vi.fn();
    store.subscribe(heard);
    store.set(same);
    expect(heard).not.toHaveBeenCalled();
    store.set({ a: 1 });
    expect(heard).toHaveBeenCalledTimes(1);
  });
});
