// The frame codec against realtime-js's own serializer: what the client encodes we decode, and back.
import Serializer from '@supabase/realtime-js/dist/module/lib/serializer.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBinaryFrame, decodeTextFrame, encodeBinaryBroadcast, encodeMessage } from './protocol.ts';

function encodeWithClient(message: Parameters<Serializer['encode']>[0]): ArrayBuffer | string {
  let out: ArrayBuffer | string = '';
  new Serializer().encode(message, (r: ArrayBuffer | string) => (out = r));
  return out;
}

function decodeWithClient(frame: ArrayBuffer | string): Record<string, unknown> {
  let out: Record<string, unknown> = {};
  new Serializer().decode(frame, (r: Record<string, unknown>) => (out = r));
  return out;
}

describe('realtime protocol codec', () => {
  it('decodes a broadcast push the client encodes as a binary frame', () => {
    const frame = encodeWithClient({
      join_ref: '3',
      ref: '17',
      topic: 'realtime:public:room',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'cursor', payload: { x: 1, s: 'é💘' } },
    });
    expect(frame).toBeInstanceOf(ArrayBuffer);
    const push = decodeBinaryFrame(Buffer.from(frame as ArrayBuffer));
    expect(push).toMatchObject({
      joinRef: '3',
      ref: '17',
      topic: 'realtime:public:room',
      userEvent: 'cursor',
    });
    expect(push?.encoding).toBe(1);
    expect(JSON.parse(push!.payload.toString('utf8'))).toEqual({ x: 1, s: 'é💘' });
  });

  it('encodes a broadcast the client decodes to the payload it listens for', () => {
    const frame = encodeBinaryBroadcast('realtime:public:room', 'cursor', 1, Buffer.from('{"x":2}'));
    const bytes = new Uint8Array(frame!);
    const decoded = decodeWithClient(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    );
    expect(decoded).toEqual({
      join_ref: null,
      ref: null,
      topic: 'realtime:public:room',
      event: 'broadcast',
      payload: { type: 'broadcast', event: 'cursor', payload: { x: 2 } },
    });
  });

  it('round-trips text messages in both protocol versions', () => {
    const message = { joinRef: '1', ref: '2', topic: 'realtime:x', event: 'phx_join', payload: { a: 1 } };
    expect(decodeTextFrame(encodeMessage(message, '2.0.0'), '2.0.0')).toEqual(message);
    expect(decodeTextFrame(encodeMessage(message, '1.0.0'), '1.0.0')).toEqual(message);
    expect(decodeWithClient(encodeMessage(message, '2.0.0'))).toEqual({
      join_ref: '1',
      ref: '2',
      topic: 'realtime:x',
      event: 'phx_join',
      payload: { a: 1 },
    });
  });

  it('rejects frames that do not have the Phoenix shape', () => {
    for (const text of [
      '',
      'null',
      '[]',
      '[1,2,3,4,5]',
      '[null,null,"",  "e", {}]',
      '{"topic":"t"}',
      '[null,null,"t","e"]',
    ]) {
      expect(decodeTextFrame(text, '2.0.0')).toBeUndefined();
    }
    expect(decodeTextFrame(JSON.stringify([null, null, 'x'.repeat(300), 'e', {}]), '2.0.0')).toBeUndefined();
    expect(decodeBinaryFrame(Buffer.from([4, 1, 1, 0, 1, 65, 66]))).toBeUndefined(); // a server-to-client kind
    expect(decodeBinaryFrame(Buffer.from([3, 0, 0, 0, 0, 0, 1]))).toBeUndefined(); // no topic, no event
    expect(decodeBinaryFrame(Buffer.from([3, 0, 0, 5, 5, 0, 7, 65]))).toBeUndefined(); // unknown encoding
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.string({ maxLength: 200 }), (bytes, text) => {
        decodeBinaryFrame(Buffer.from(bytes));
        decodeBinaryFrame(Buffer.from([3, ...bytes]));
        decodeTextFrame(text, '2.0.0');
        decodeTextFrame(text, '1.0.0');
      }),
      { numRuns: 500 },
    );
  });
});
