import { describe, expect, it } from 'vitest';
import { encodeForNotify, NotifyDecoder } from './cluster-bus.ts';

describe('bus messages over pg_notify', () => {
  it('a small message is one payload, read back as it was', () => {
    const envelope = { o: 'p1', s: 1, k: 'process-alive' as const, m: {} };
    const payloads = encodeForNotify(envelope);
    expect(payloads).toHaveLength(1);
    expect(new NotifyDecoder().decode(payloads[0]!)).toEqual(envelope);
  });

  it('a large message goes in chunks under the 8000-byte limit and is reassembled in any order', () => {
    const payload = 'ünïcødé ✓ '.repeat(3000);
    const envelope = {
      o: 'p1',
      s: 2,
      k: 'rt-broadcast' as const,
      m: { topic: 'realtime:public:x', event: 'e', encoding: 0, payload },
    };
    const payloads = encodeForNotify(envelope);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    const decoder = new NotifyDecoder();
    const shuffled = [...payloads].reverse();
    const results = shuffled.map((p) => decoder.decode(p));
    expect(results.slice(0, -1).every((r) => r === undefined)).toBe(true);
    expect(results.at(-1)).toEqual(envelope);
  });

  it('chunks of a message that never completes are dropped after a while', () => {
    const payloads = encodeForNotify({ o: 'p1', s: 3, k: 'process-alive', m: { pad: 'x'.repeat(20_000) } });
    const decoder = new NotifyDecoder();
    expect(decoder.decode(payloads[0]!, 0)).toBeUndefined();
    // Long after: the stale part is gone, so the rest alone does not complete a message.
    for (const p of payloads.slice(1)) expect(decoder.decode(p, 60_000)).toBeUndefined();
  });
});
