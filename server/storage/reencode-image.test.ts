import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { findImageKind, reencodeImage } from './reencode-image.ts';

describe('findImageKind', () => {
  it('judges by magic bytes only', async () => {
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(findImageKind(png)).toBe('png');
    expect(findImageKind(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(findImageKind(Buffer.from('GIF89a....'))).toBe('gif');
    expect(findImageKind(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('reencodeImage', () => {
  it('scales a large image down to 2048 px on its longest side', async () => {
    const big = await sharp({ create: { width: 4000, height: 1000, channels: 3, background: '#123' } })
      .jpeg()
      .toBuffer();
    const out = await reencodeImage(big);
    expect([out.width, out.height]).toEqual([2048, 512]);
    expect(out.mimetype).toBe('image/jpeg');
  });

  it('refuses a truncated JPEG with 422', async () => {
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123' } })
      .jpeg()
      .toBuffer();
    await expect(reencodeImage(jpeg.subarray(0, 40))).rejects.toMatchObject({ status: 422 });
  });
});
