// Member photos are signed in batches (issue 21): the photo URLs a screen asks for within a few milliseconds
// (a deck, a match list, the sidebar) go to storage as one createSignedUrls call, not one request per image.

/** Signs several object keys at once; answers each key's URL or an error for it. */
export type SignMany = (
  keys: string[],
) => Promise<{ path: string | null; signedUrl: string | null; error: string | null }[]>;

/** How long requests are gathered before one call goes out. */
export const BATCH_WINDOW_MS = 10;
/** Storage signs at most 100 keys per call. */
export const BATCH_MAX = 100;

interface Waiter {
  resolve: (url: string) => void;
  reject: (e: Error) => void;
}

export function createPhotoSigner(signMany: () => Promise<SignMany>) {
  let pending: Map<string, Waiter[]> | undefined;

  async function flush(batch: Map<string, Waiter[]>) {
    const keys = [...batch.keys()];
    for (let i = 0; i < keys.length; i += BATCH_MAX) {
      const chunk = keys.slice(i, i + BATCH_MAX);
      try {
        const answers = await (await signMany())(chunk);
        const byPath = new Map(answers.map((a) => [a.path, a]));
        for (const key of chunk) {
          const a = byPath.get(key);
          for (const w of batch.get(key) ?? []) {
            if (a?.signedUrl) w.resolve(a.signedUrl);
            else w.reject(new Error(a?.error ?? 'The photo could not be signed'));
          }
        }
      } catch (e) {
        for (const key of chunk) for (const w of batch.get(key) ?? []) w.reject(e as Error);
      }
    }
  }

  /** A signed URL for one key, asked together with the others of this moment. */
  return function sign(key: string): Promise<string> {
    return new Promise((resolve, reject) => {
      if (!pending) {
        const batch = new Map<string, Waiter[]>();
        pending = batch;
        setTimeout(() => {
          pending = undefined;
          void flush(batch);
        }, BATCH_WINDOW_MS);
      }
      const waiters = pending.get(key) ?? [];
      waiters.push({ resolve, reject });
      pending.set(key, waiters);
    });
  };
}
