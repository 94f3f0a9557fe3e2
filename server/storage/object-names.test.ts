import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkObjectName, splitBucketAndName } from './object-names.ts';

describe('checkObjectName', () => {
  it.each(['abc/photo.jpg', 'a b/ü 😀.png', "it's (1).webp", 'x'.repeat(255)])('accepts %s', (name) => {
    expect(checkObjectName(name)).toBe(name);
  });

  it.each([
    '',
    '../x.js',
    'a/../../x.js',
    './x',
    'a//b',
    '/abs',
    'trailing/',
    'back\\slash',
    'nul\u0000byte',
    'q?x',
    'h#x',
    'p%2e',
    'x'.repeat(256),
    `${'a/'.repeat(600)}b`,
  ])('refuses %j with a 400', (name) => {
    expect(() => checkObjectName(name)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('never lets a name through whose segments could climb out of a folder', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('..', '.', '', 'a', 'b.jpg', '\\', '%2e'), { maxLength: 6 }),
        (parts) => {
          const name = parts.join('/');
          let accepted = true;
          try {
            checkObjectName(name);
          } catch {
            accepted = false;
          }
          if (accepted) expect(name.split('/').every((s) => s !== '' && s !== '.' && s !== '..')).toBe(true);
        },
      ),
    );
  });
});

describe('splitBucketAndName', () => {
  it('splits at the first slash and checks both parts', () => {
    expect(splitBucketAndName('profile-photos/u/1.jpg')).toEqual({
      bucket: 'profile-photos',
      name: 'u/1.jpg',
    });
    expect(() => splitBucketAndName('profile-photos')).toThrow();
    expect(() => splitBucketAndName('Bad Bucket/x.jpg')).toThrow();
  });
});
