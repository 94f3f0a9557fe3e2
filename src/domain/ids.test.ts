import crypto from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  getBlockId,
  getConversationId,
  getGameRoundId,
  getInteractionId,
  getUuidBytes,
  isUuid,
  sha256,
} from './ids.ts';

const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('sha256', () => {
  test.prop([fc.uint8Array({ maxLength: 300 })])('equals node:crypto for any input', (bytes) => {
    expect(Buffer.from(sha256(bytes)).toString('hex')).toBe(
      crypto.createHash('sha256').update(bytes).digest('hex'),
    );
  });
});

describe('getGameRoundId', () => {
  it('equals SQL public.game_round_id (values computed by PGlite)', () => {
    expect(getGameRoundId('0b9f6c1e-4a53-4c1e-9d53-5b3a2f3c7e11', 3)).toBe(
      '5e78f32e-5dc0-8b90-8581-b4dece1def6b',
    );
    expect(getGameRoundId('FFFFFFFF-ffff-4fff-bfff-ffffffffffff', 2147483647)).toBe(
      'c1b96811-1d78-8b00-b311-e8262755a652',
    );
  });

  test.prop([fc.uuid(), fc.integer({ min: 1, max: 1000 })])(
    'is a UUIDv8 and deterministic',
    (session, round) => {
      const id = getGameRoundId(session, round);
      expect(id).toMatch(UUID_V8);
      expect(getGameRoundId(session, round)).toBe(id);
      expect(getGameRoundId(session, round + 1)).not.toBe(id);
    },
  );

  it('refuses a round number that is not a 4-byte integer', () => {
    expect(() => getGameRoundId(crypto.randomUUID(), 1.5)).toThrow(/round number/);
    expect(() => getGameRoundId(crypto.randomUUID(), 2 ** 31)).toThrow(/round number/);
  });
});

describe('getInteractionId and getConversationId', () => {
  test.prop([fc.uuid(), fc.uuid()])('are UUIDv8, stable, and distinct from each other', (a, b) => {
    fc.pre(a.toLowerCase() !== b.toLowerCase());
    const like = getInteractionId(a, b);
    expect(like).toMatch(UUID_V8);
    expect(getInteractionId(a, b)).toBe(like);
    // Direction matters for a like, not for a conversation.
    expect(getInteractionId(b, a)).not.toBe(like);
    expect(getConversationId(a, b)).toBe(getConversationId(b, a));
    expect(getConversationId(a, b)).not.toBe(like);
    expect(getConversationId(a, b)).toMatch(UUID_V8);
    // A block is the blocker's, of one member: its own id, apart from the like of the same pair.
    expect(getBlockId(a, b)).toMatch(UUID_V8);
    expect(getBlockId(a, b)).toBe(getBlockId(a.toUpperCase(), b));
    expect(getBlockId(b, a)).not.toBe(getBlockId(a, b));
    expect(getBlockId(a, b)).not.toBe(like);
    expect(getBlockId(a, b)).not.toBe(getConversationId(a, b));
  });

  it('does not depend on the letter case of the ids', () => {
    const a = crypto.randomUUID();
    const b = crypto.randomUUID();
    expect(getConversationId(a.toUpperCase(), b)).toBe(getConversationId(a, b.toUpperCase()));
    expect(getInteractionId(a.toUpperCase(), b)).toBe(getInteractionId(a, b));
  });

  it('throws on something that is not a UUID instead of deriving a plausible id', () => {
    expect(() => getInteractionId('not-a-uuid', crypto.randomUUID())).toThrow(/not a UUID/);
    expect(() => getUuidBytes('')).toThrow();
    expect(isUuid(crypto.randomUUID())).toBe(true);
    expect(isUuid('123')).toBe(false);
  });
});
