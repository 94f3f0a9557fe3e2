import { describe, expect, it } from 'vitest';
import {
  describeCallCard,
  findSupersededCallSteps,
  formatCallClock,
  formatCallDuration,
  rateConnection,
  readCallMeta,
} from './calls.ts';

describe('call cards', () => {
  const me = 'me';
  it('words each step for the caller and the recipient', () => {
    const mine = { callId: 'c', callType: 'video' as const, callerId: me };
    const theirs = { callId: 'c', callType: 'audio' as const, callerId: 'other' };
    expect(describeCallCard('video_call_timeout', theirs, me)).toEqual({
      tone: 'missed',
      title: 'Missed audio call',
    });
    expect(describeCallCard('video_call_timeout', mine, me).title).toBe('Video call, no answer');
    expect(describeCallCard('video_call_end', { ...theirs, durationSeconds: 245 }, me)).toEqual({
      tone: 'done',
      title: 'Audio call, 4 min',
    });
    expect(describeCallCard('video_call_end', { ...mine, durationSeconds: 0 }, me).title).toBe(
      'Video call, cancelled',
    );
    expect(describeCallCard('video_call_end', { ...theirs, durationSeconds: 0 }, me).title).toBe(
      'Missed audio call',
    );
    expect(describeCallCard('video_call_decline', mine, me).title).toBe('Video call declined');
    expect(describeCallCard('video_call_ring', theirs, me).title).toBe('Incoming audio call');
    expect(describeCallCard('video_call_answer', mine, me).title).toBe('Video call in progress');
  });

  it('reads metadata defensively', () => {
    expect(readCallMeta('not json')).toEqual({});
    expect(readCallMeta(null)).toEqual({});
    expect(readCallMeta('{"callId":"c","callType":"hologram","durationSeconds":"5"}')).toEqual({
      callId: 'c',
    });
  });

  it('keeps only the latest step of each call', () => {
    const step = (id: string, type: string, callId?: string) => ({
      id,
      type,
      metadata: callId ? JSON.stringify({ callId }) : null,
    });
    const hidden = findSupersededCallSteps([
      step('1', 'video_call_ring', 'a'),
      step('2', 'text'),
      step('3', 'video_call_answer', 'a'),
      step('4', 'video_call_ring', 'b'),
      step('5', 'video_call_end', 'a'),
    ]);
    expect([...hidden].sort()).toEqual(['1', '3']);
  });
});

describe('durations and quality', () => {
  it('formats durations', () => {
    expect(formatCallDuration(45)).toBe('45 s');
    expect(formatCallDuration(240)).toBe('4 min');
    expect(formatCallDuration(3900)).toBe('1 h 5 min');
    expect(formatCallDuration(7200)).toBe('2 h');
    expect(formatCallClock(245)).toBe('04:05');
  });

  it('rates a connection from round-trip time and loss', () => {
    expect(rateConnection({})).toBe('unknown');
    expect(rateConnection({ roundTripTime: 0.02, packetsReceived: 1000, packetsLost: 0 })).toBe('excellent');
    expect(rateConnection({ roundTripTime: 0.2, packetsReceived: 1000 })).toBe('good');
    expect(rateConnection({ roundTripTime: 0.05, packetsReceived: 900, packetsLost: 50 })).toBe('fair');
    expect(rateConnection({ roundTripTime: 0.9 })).toBe('poor');
  });
});
