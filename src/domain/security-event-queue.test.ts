import { describe, expect, it } from 'vitest';
import {
  BACKOFF_MS,
  BATCH_DELAY_MS,
  LIMIT_PER_MINUTE,
  SecurityEventQueue,
  type SecurityEvent,
} from './security-event-queue.ts';

function setup(options: { fail?: boolean; online?: boolean } = {}) {
  let now = 0;
  let online = options.online ?? true;
  const timers: { at: number; fn: () => void }[] = [];
  const sends: SecurityEvent[][] = [];
  const queue = new SecurityEventQueue({
    now: () => now,
    isOnline: () => online,
    send: async (events) => {
      sends.push(events);
      if (options.fail) throw new TypeError('Failed to fetch');
    },
    schedule: (fn, ms) => timers.push({ at: now + ms, fn }),
  });
  const advance = async (ms: number) => {
    now += ms;
    for (const t of timers.splice(0).filter((x) => x.at <= now)) t.fn();
    await Promise.resolve();
    await Promise.resolve();
  };
  return { queue, sends, advance, setOnline: (v: boolean) => (online = v) };
}

const ev = (event: string, details: Record<string, unknown> = {}): SecurityEvent => ({ event, details });

describe('the security event queue', () => {
  it('sends waiting events together in one batch after a short delay, equal ones once', async () => {
    const { queue, sends, advance } = setup();
    queue.add(ev('page_visit', { path: '/a' }));
    queue.add(ev('page_visit', { path: '/a' }));
    queue.add(ev('page_hidden'));
    expect(sends).toEqual([]);
    await advance(BATCH_DELAY_MS);
    expect(sends).toEqual([[ev('page_visit', { path: '/a' }), ev('page_hidden')]]);
  });

  it('a refused logger request produces no further logger request', async () => {
    const { queue, sends, advance } = setup({ fail: true });
    queue.add(ev('csp_violations_detected', { blocked: 'http://localhost:3000/rest/v1/rpc/x' }));
    await advance(BATCH_DELAY_MS);
    expect(sends).toHaveLength(1);
    // What the refusal causes (another CSP violation event, a retry) is not sent while paused.
    for (let i = 0; i < 100; i++) queue.add(ev('csp_violations_detected', { n: i }));
    await advance(BATCH_DELAY_MS);
    await advance(BACKOFF_MS - 2 * BATCH_DELAY_MS);
    expect(sends).toHaveLength(1);
  });

  it('caps what leaves a page a minute', async () => {
    const { queue, sends, advance } = setup();
    for (let i = 0; i < 100; i++) queue.add(ev('page_visit', { n: i }));
    await advance(BATCH_DELAY_MS);
    for (let i = 0; i < 100; i++) queue.add(ev('page_visit', { m: i }));
    await advance(BATCH_DELAY_MS);
    expect(sends.flat()).toHaveLength(LIMIT_PER_MINUTE);
    await advance(60_000);
    queue.add(ev('page_visit', { later: true }));
    await advance(BATCH_DELAY_MS);
    expect(sends.flat()).toHaveLength(LIMIT_PER_MINUTE + 1);
  });

  it('drops events quietly while offline', async () => {
    const { queue, sends, advance, setOnline } = setup({ online: false });
    expect(queue.add(ev('page_hidden'))).toBe(false);
    setOnline(true);
    queue.add(ev('page_visible'));
    setOnline(false);
    await advance(BATCH_DELAY_MS);
    expect(sends).toEqual([]);
  });
});
