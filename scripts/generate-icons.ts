// Renders the PWA icons in public/ from public/favicon.svg (run once after changing the logo: npx tsx scripts/generate-icons.ts).
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const publicDir = path.resolve(import.meta.dirname, '../public');
const svg = fs.readFileSync(path.join(publicDir, 'favicon.svg'));
const BRAND_BACKGROUND = '#fff1f2';

/** The heart on a light square; `safeZone` shrinks it so a maskable icon's circle crop keeps it whole. */
async function renderIcon(size: number, safeZone: number, file: string): Promise<void> {
  const inner = Math.round(size * safeZone);
  const heart = await sharp(svg, { density: 384 }).resize(inner, inner).png().toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background: BRAND_BACKGROUND } })
    .composite([{ input: heart, gravity: 'center' }])
    .png({ compressionLevel: 9 })
    .toFile(path.join(publicDir, file));
  console.log(`wrote public/${file}`);
}

await renderIcon(192, 0.8, 'pwa-192x192.png');
await renderIcon(512, 0.8, 'pwa-512x512.png');
// Maskable icons must keep their content inside the central 80% circle (W3C manifest spec).
await renderIcon(512, 0.6, 'pwa-maskable-512x512.png');
await renderIcon(180, 0.75, 'apple-touch-icon.png');
