// Text a member typed and has not sent yet (message drafts; also for profile fields and Lovy questions),
// written through to this device's local storage on every change: synchronous, so a reload or close right
// after typing keeps it (the replica's write is asynchronous and may not land first). Cleared when the text
// is sent and at sign-out, so the next person on the device sees nothing; at a sign-out the member did not ask
// for, set aside for that member alone instead (held-unsent-text.ts, decision 0114).

import { localStore, removeKeysWithPrefix } from './local-storage.ts';

export const UNSENT_TEXT_PREFIX = 'heartsync.unsent.';

export interface UnsentText {
  text: string;
  /** When it was typed (ms since the epoch), to tell it from an older copy kept elsewhere. */
  at: number;
}

/** Keeps the text at once (an empty text clears it). */
export function keepUnsentText(key: string, text: string): void {
  const s = localStore();
  try {
    if (text === '') s?.removeItem(UNSENT_TEXT_PREFIX + key);
    else s?.setItem(UNSENT_TEXT_PREFIX + key, JSON.stringify({ text, at: Date.now() } satisfies UnsentText));
  } catch {
    /* storage full or unavailable: the replica's copy remains */
  }
}

export function findUnsentText(key: string): UnsentText | undefined {
  try {
    const raw = localStore()?.getItem(UNSENT_TEXT_PREFIX + key);
    if (!raw) return undefined;
    const v = JSON.parse(raw) as Partial<UnsentText>;
    return typeof v.text === 'string' && typeof v.at === 'number' ? { text: v.text, at: v.at } : undefined;
  } catch {
    return undefined;
  }
}

export function clearUnsentText(key: string): void {
  try {
    localStore()?.removeItem(UNSENT_TEXT_PREFIX + key);
  } catch {
    /* nothing kept */
  }
}

/** At sign-out: every unsent text of this device goes. */
export function clearAllUnsentTexts(): void {
  removeKeysWithPrefix(UNSENT_TEXT_PREFIX);
}
