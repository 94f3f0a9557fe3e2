// The device's local storage as the app's small synchronous stores use it (unsent text, screen snapshots):
// absent where the browser refuses it (a privacy mode, a sandboxed frame), and swept by key prefix at sign-out.

/** This page's local storage, or undefined where the browser refuses it. */
export function localStore(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** Removes every key under `prefix` (last index first, so removing never skips a key); other keys stay. */
export function removeKeysWithPrefix(prefix: string): void {
  const s = localStore();
  if (!s) return;
  try {
    for (let i = s.length - 1; i >= 0; i--) {
      const k = s.key(i);
      if (k?.startsWith(prefix)) s.removeItem(k);
    }
  } catch {
    /* storage unavailable: nothing was kept */
  }
}
