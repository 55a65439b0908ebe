// Draws the example brand's images (examples/brand/images/*.png) with a tiny
// PNG encoder, so the committed pictures can be reproduced byte for byte:
//   npm run build && node dist/scripts/gen-example-images.js

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { packageRoot } from '../src/util/paths.js';

type Rgb = readonly [number, number, number];
type Painter = (x: number, y: number) => Rgb;

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Encode an 8-bit RGB image painted pixel by pixel as PNG. */
export function encodePng(width: number, height: number, paint: Painter): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let o = 0;
  for (let y = 0; y < height; y++) {
    raw[o++] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      raw[o++] = r;
      raw[o++] = g;
      raw[o++] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(2, 9); // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [0, 1, 2].map((i) => Math.round(a[i]! + (b[i]! - a[i]!) * t)) as unknown as Rgb;
const CREAM: Rgb = [245, 235, 220];
const ESPRESSO: Rgb = [62, 39, 35];
const LATTE: Rgb = [196, 156, 112];
const LEAF: Rgb = [120, 180, 90];
const BLOSSOM: Rgb = [250, 200, 215];

/** A cup of coffee seen from above, on a latte-coloured gradient. */
const hero: Painter = (x, y) => {
  const d = Math.hypot(x - 300, y - 150);
  if (d < 90) return d < 75 ? mix(ESPRESSO, LATTE, d / 150) : CREAM;
  if (Math.hypot(x - 405, y - 150) < 22 && Math.hypot(x - 405, y - 150) > 12) return CREAM;
  return mix(LATTE, CREAM, y / 300);
};

/** Rows of coffee beans. */
const beans: Painter = (x, y) => {
  const cx = ((x % 80) - 40) / 28;
  const cy = ((y % 80) - 40) / 18;
  const inBean = cx * cx + cy * cy < 1;
  if (inBean) return Math.abs(cx * 0.6 - cy * 0.4) < 0.08 ? CREAM : ESPRESSO;
  return mix(CREAM, LATTE, x / 400);
};

/** The Coffee Co logo: a cream ring and a bean on espresso, 300x300 as the service demands. */
const logo: Painter = (x, y) => {
  const d = Math.hypot(x - 150, y - 150);
  if (d > 140) return CREAM;
  if (d > 125) return LATTE;
  const bx = (x - 150) / 60;
  const by = (y - 150) / 85;
  if (bx * bx + by * by < 1) return Math.abs(bx - by * 0.3) < 0.1 ? ESPRESSO : CREAM;
  return ESPRESSO;
};

/** Spring campaign banner: blossoms over a green field. */
const spring: Painter = (x, y) => {
  const petal = Math.hypot((x % 100) - 50, (y % 100) - 50) < 18;
  if (petal && y < 200) return BLOSSOM;
  return y < 200 ? mix([210, 235, 250], CREAM, y / 200) : mix(LEAF, [70, 130, 60], (y - 200) / 100);
};

const out = join(packageRoot(), 'examples', 'brand', 'images');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'hero.png'), encodePng(600, 300, hero));
writeFileSync(join(out, 'beans.png'), encodePng(400, 400, beans));
writeFileSync(join(out, 'logo.png'), encodePng(300, 300, logo));
writeFileSync(join(out, 'spring.png'), encodePng(400, 300, spring));
process.stdout.write(`wrote 4 images to ${out}\n`);
