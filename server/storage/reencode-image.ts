// Turns an uploaded image into a fresh, metadata-free JPEG or WebP, refusing anything but allow-listed formats.
import sharp from 'sharp';
import { MAX_INPUT_PIXELS, MAX_STORED_DIMENSION } from './limits.ts';
import { StorageError } from './storage-error.ts';

export type ImageKind = 'jpeg' | 'png' | 'webp' | 'gif';

export interface EncodedImage {
  data: Buffer;
  mimetype: 'image/jpeg' | 'image/webp';
  width: number;
  height: number;
}

/** The format the bytes really are, judged by their magic numbers (never the name or content-type). */
export function findImageKind(bytes: Uint8Array): ImageKind | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 16));
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  if (b.length >= 6 && ['GIF87a', 'GIF89a'].includes(b.toString('latin1', 0, 6))) return 'gif';
  return undefined;
}

// GIF is refused: animated GIFs as profile photos or chat pictures are not a feature, and the first
// frame alone would surprise the sender. SVG and PDF never pass: sharp would render them.
const ALLOWED: ReadonlySet<ImageKind> = new Set(['jpeg', 'png', 'webp']);

const unsupported = () =>
  new StorageError(415, 'invalid_mime_type', 'Unsupported image type: only JPEG, PNG and WebP are accepted');
const undecodable = () => new StorageError(422, 'invalid_image', 'The image could not be decoded');

export async function reencodeImage(input: Buffer): Promise<EncodedImage> {
  const kind = findImageKind(input);
  if (!kind || !ALLOWED.has(kind)) throw unsupported();
  let width: number | undefined;
  let height: number | undefined;
  let format: string | undefined;
  try {
    // metadata() reads the header only, so a pixel bomb is measured without being decoded.
    ({ width, height, format } = await sharp(input, { limitInputPixels: false }).metadata());
  } catch {
    throw undecodable();
  }
  if (format !== kind) throw unsupported();
  if (!width || !height) throw undecodable();
  if (width * height > MAX_INPUT_PIXELS)
    throw new StorageError(
      422,
      'image_too_large',
      `The image is too large: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels are accepted`,
    );
  try {
    const pipeline = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false })
      // rotate() with no angle applies the EXIF orientation, so the picture is stored upright.
      .rotate()
      .resize({
        width: MAX_STORED_DIMENSION,
        height: MAX_STORED_DIMENSION,
        fit: 'inside',
        withoutEnlargement: true,
      });
    // Without withMetadata()/keepMetadata() sharp writes no EXIF, GPS, XMP, IPTC or ICC data.
    const out =
      kind === 'jpeg'
        ? await pipeline.jpeg({ quality: 85, mozjpeg: true }).toBuffer({ resolveWithObject: true })
        : await pipeline.webp({ quality: 85 }).toBuffer({ resolveWithObject: true });
    return {
      data: out.data,
      mimetype: kind === 'jpeg' ? 'image/jpeg' : 'image/webp',
      width: out.info.width,
      height: out.info.height,
    };
  } catch {
    throw undecodable();
  }
}
