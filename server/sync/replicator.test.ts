import { describe, expect, it } from 'vitest';
import { serializeRowData } from './replicator.ts';

describe('serializeRowData', () => {
  it('leaves out the id and keeps the columns in order', () => {
    expect(serializeRowData({ id: 'a', name: 'Ann', age: 31, bio: null })).toBe(
      '{"name":"Ann","age":31,"bio":null}',
    );
  });

  it('writes bigints as numbers when exact and as strings beyond 2^53', () => {
    expect(serializeRowData({ id: 'a', n: 42n, big: 9007199254740993n, neg: -7n })).toBe(
      '{"n":42,"big":"9007199254740993","neg":-7}',
    );
  });

  it('converts bigints inside nested values too', () => {
    expect(serializeRowData({ id: 'a', list: [1n, 9007199254740993n], obj: { n: 2n } })).toBe(
      '{"list":[1,"9007199254740993"],"obj":{"n":2}}',
    );
  });

  it('escapes text as JSON does', () => {
    expect(serializeRowData({ text: 'say "hi"\n\u0000' })).toBe(JSON.stringify({ text: 'say "hi"\n\u0000' }));
  });
});
