// Unsent texts (unsent-text.ts) at a sign-out the member did not ask for (decision 0114): set aside for that
// member alone, under one key no page reads, and put back when the same member signs in again on this device.
// Another member's sign-in deletes them unread. Apart from unsent-text.ts, which the landing's entry loads:
// only a signed-in member's chunks need this.
import { localStore } from './local-storage.ts';
import { UNSENT_TEXT_PREFIX, clearAllUnsentTexts } from './unsent-text.ts';

/** { userId, texts: { key: the stored value } } */
const HELD_KEY = 'heartsync.heldUnsent';

/**
 * Sets every unsent text of this device aside for `userId`; no page finds them any more. Texts held earlier for
 * the same member stay with them (a newer one under the same key wins).
 */
export function holdAllUnsentTexts(userId: string): void {
  const s = localStore();
  if (!s) return;
  try {
    const texts = readHeld(s, userId);
    for (let i = 0; i < s.length; i++) {
      const k = s.key(i);
      const v = k?.startsWith(UNSENT_TEXT_PREFIX) ? s.getItem(k) : null;
      if (k && v !== null) texts[k.slice(UNSENT_TEXT_PREFIX.length)] = v;
    }
    if (Object.keys(texts).length > 0) s.setItem(HELD_KEY, JSON.stringify({ userId, texts }));
  } catch {
    /* storage full or unavailable: the texts go below all the same, as at a sign-out asked for */
  }
  clearAllUnsentTexts();
}

/**
 * At sign-in, before any page reads an unsent text: the texts held for this member come back (a text under the
 * same key typed since wins); texts held for another member are deleted.
 */
export function restoreHeldUnsentTexts(userId: string): void {
  const s = localStore();
  if (!s) return;
  try {
    if (s.getItem(HELD_KEY) === null) return;
    const texts = readHeld(s, userId);
    s.removeItem(HELD_KEY);
    for (const [key, value] of Object.entries(texts))
      if (s.getItem(UNSENT_TEXT_PREFIX + key) === null) s.setItem(UNSENT_TEXT_PREFIX + key, value);
  } catch {
    /* storage unavailable: nothing was held */
  }
}

/** The texts held for `userId`: none when they are another member's or the entry is damaged. */
function readHeld(s: Storage, userId: string): Record<string, string> {
  try {
    const held = JSON.parse(s.getItem(HELD_KEY) ?? 'null') as { userId?: unknown; texts?: unknown } | null;
    if (held?.userId !== userId || typeof held.texts !== 'object' || held.texts === null) return {};
    const texts: Record<string, string> = {};
    for (const [key, value] of Object.entries(held.texts)) if (typeof value === 'string') texts[key] = value;
    return texts;
  } catch {
    return {};
  }
}
