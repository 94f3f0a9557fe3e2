import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, getToasts, toast, toastError, TOAST_REMOVE_DELAY_MS } from './toast-store.ts';

describe('the toast store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    dismissToast();
    vi.runAllTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('shows one toast at a time, the newest', () => {
    toast({ title: 'first' });
    toast({ title: 'second' });
    expect(getToasts().map((t) => t.title)).toEqual(['second']);
  });

  it('closes a dismissed toast at once and removes it 3 s later', () => {
    const id = toast({ title: 'bye' });
    dismissToast(id);
    expect(getToasts()).toMatchObject([{ id, open: false }]);
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(getToasts()).toEqual([]);
  });

  it('styles errors as destructive and gives account toasts 3 s', () => {
    toastError('Login failed', 'Invalid email or password');
    expect(getToasts()[0]).toMatchObject({ variant: 'destructive', duration: 3000 });
  });
});
