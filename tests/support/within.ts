// A promise given a time limit: the tests that check something is not held up (by a lock, a copy) fail with
// a message saying what waited, instead of hanging until the test's own timeout.

/** Settles as `work` does, or rejects with `message` when `work` has not settled within `ms`. */
export async function within<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}
