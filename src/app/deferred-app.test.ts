import { describe, expect, it } from 'vitest';
import { afterFirstPaint, type FrameClock } from './deferred-app.ts';

/** A clock run by hand: frames and timers fire only when the test says. */
function manualClock() {
  const frames: (() => void)[] = [];
  const timers: { at: number; callback: () => void }[] = [];
  let now = 0;
  const clock: FrameClock = {
    requestAnimationFrame: (callback) => frames.push(callback),
    setTimeout: (callback, ms) => timers.push({ at: now + ms, callback }),
  };
  return {
    clock,
    frame() {
      for (const f of frames.splice(0)) f();
    },
    advance(ms: number) {
      now += ms;
      for (const t of timers.filter((x) => x.at <= now)) {
        timers.splice(timers.indexOf(t), 1);
        t.callback();
      }
    },
  };
}

describe('afterFirstPaint', () => {
  it('runs in the task after the next frame, not within it, and once only', () => {
    const m = manualClock();
    let runs = 0;
    afterFirstPaint(() => runs++, 1000, m.clock);
    m.advance(0);
    expect(runs).toBe(0);
    m.frame();
    expect(runs).toBe(0);
    m.advance(0);
    expect(runs).toBe(1);
    m.advance(1000);
    expect(runs).toBe(1);
  });

  it('runs after the longest wait when no frame comes (a tab in the background)', () => {
    const m = manualClock();
    let runs = 0;
    afterFirstPaint(() => runs++, 500, m.clock);
    m.advance(499);
    expect(runs).toBe(0);
    m.advance(1);
    expect(runs).toBe(1);
    m.frame();
    m.advance(0);
    expect(runs).toBe(1);
  });
});
