import { describe, expect, it, vi } from 'vitest';
import { getAppBadgeCount, showAppBadge } from './app-badge.ts';

describe("the app icon's badge", () => {
  it('counts unread messages and new likes', () => {
    expect(getAppBadgeCount({ messages: 2, likes: 3 })).toBe(5);
    expect(getAppBadgeCount({ messages: 0, likes: 0 })).toBe(0);
  });

  it('shows a number, clears at 0, and does nothing without the API', async () => {
    const nav = {
      setAppBadge: vi.fn(async (_n?: number) => {}),
      clearAppBadge: vi.fn(async () => {}),
    };
    showAppBadge(4, nav);
    expect(nav.setAppBadge).toHaveBeenCalledWith(4);
    showAppBadge(0, nav);
    expect(nav.clearAppBadge).toHaveBeenCalledTimes(1);
    expect(() => showAppBadge(3, {})).not.toThrow();
    expect(() => showAppBadge(3, undefined)).not.toThrow();
  });

  it('catches a refusal (an app not installed, a badge not allowed)', async () => {
    const refusal = { catch: vi.fn() };
    const setAppBadge = vi.fn(() => refusal as unknown as Promise<void>);
    showAppBadge(1, { setAppBadge, clearAppBadge: async () => {} });
    expect(setAppBadge).toHaveBeenCalledWith(1);
    expect(refusal.catch).toHaveBeenCalledTimes(1);
  });
});
