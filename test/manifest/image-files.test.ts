// Images are checked whole, not by their header (issue 35): a PNG cut to 33
// bytes, cut in half, or with a header and no image data is refused by
// validate in every image field (auto-reply and template images, logos, agency
// files, the brand's profile and background images), as a 300 KB-class PNG of
// 50,000 x 50,000 pixels is by the pixel ceiling; a room's certificate is
// checked by its content, and an empty one is refused. JPEG, GIF and BMP are
// walked to their end too. Each case runs `rcsctl validate` end to end.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { imageStructure } from '../../src/util/image-structure.js';
import { BRAND, cli, EXAMPLE, ROOT } from '../e2e/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'rcsctl-images-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each image field, the valid image it takes, and where its path sits in the manifest. */
const FIELDS: [string, string][] = [
  ['hero.png', join(EXAMPLE, 'images', 'hero.png')],
  ['logo.png', join(EXAMPLE, 'images', 'logo.png')],
  ['template.png', join(ROOT, 'test', 'plan-cases', '061-templates-from-nothing', 'images', 'autumn.png')],
  ['agency.png', join(EXAMPLE, 'images', 'spring.png')],
  ['profile.png', join(ROOT, 'test', 'plan-cases', '071-profile-from-nothing', 'images', 'profile.png')],
  ['background.png', join(ROOT, 'test', 'plan-cases', '071-profile-from-nothing', 'images', 'profile.png')],
];

const MANIFEST = (certificate: string): string => `apiVersion: rcsctl/v1
kind: Brand
brand:
  id: ${BRAND}
files:
  hero: { path: images/hero.png }
autoReplies:
  welcome:
    name: Welcome
    messagebaseId: SCwThM00
    body: { title: Hi, description: Hello, media: { file: hero } }
logos:
  main: { name: Logo, description: Sign, path: images/logo.png }
templates:
  sale:
    custTmpltId: tSale
    tmpltName: Sale
    messagebaseformId: ITHI001V
    body:
      - { param: media, value: { path: images/template.png } }
      - { param: title, value: Sale }
      - { param: description, value: Up to half off }
agencyFiles:
  ${BRAND}.spring: { path: images/agency.png, mimeType: image/png }
chatbots:
  "0211112222":
    subTitle: Takeaway
    display: "11"
    certificate: { path: images/${certificate} }
brandProfile:
  account: master
  name: Coffee Co
  description: Fresh coffee daily
  tel: "0212345678"
  categoryId: SHP
  subCategoryId: SHP002
  keywords: coffee
  menus:
    - type: web
      urlAction: { openUrl: { url: "https://coffee.example" } }
  profileImage: images/profile.png
  backgroundImage: images/background.png
`;

/** A PNG chunk with its CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function crc32(b: Buffer): number {
  let c = 0xffffffff;
  for (const byte of b) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

const SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);
const ihdr = (w: number, h: number): Buffer => {
  const d = Buffer.alloc(13);
  d.writeUInt32BE(w, 0);
  d.writeUInt32BE(h, 4);
  d.writeUInt8(8, 8); // bit depth
  d.writeUInt8(0, 9); // greyscale
  return chunk('IHDR', d);
};

/** 50,000 x 50,000 greyscale, every chunk whole: its first rows compressed, as a 300 KB file would start. */
function huge(): Buffer {
  const rows = Buffer.alloc(200 * 50_001);
  return Buffer.concat([SIGNATURE, ihdr(50_000, 50_000), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const DEFECTS: [string, (valid: Buffer) => Buffer][] = [
  ['cut to 33 bytes', (b) => b.subarray(0, 33)],
  ['cut in half', (b) => b.subarray(0, Math.floor(b.length / 2))],
  ['with a header and no data', (b) => Buffer.concat([b.subarray(0, 33), chunk('IEND', Buffer.alloc(0))])],
  ['with one byte of its data changed', (b) => {
    const c = Buffer.from(b);
    c[c.length - 20] = (c[c.length - 20] as number) ^ 0xff;
    return c;
  }],
];

async function validate(name: string, image: (field: string, valid: Buffer) => Buffer, certificate: { name: string; bytes: Buffer }): Promise<{ code: number; stderr: string }> {
  const at = join(dir, name);
  mkdirSync(join(at, 'images'), { recursive: true });
  for (const [field, source] of FIELDS) writeFileSync(join(at, 'images', field), image(field, readFileSync(source)));
  writeFileSync(join(at, 'images', certificate.name), certificate.bytes);
  writeFileSync(join(at, 'brand.yaml'), MANIFEST(certificate.name));
  const r = await cli(['validate', join(at, 'brand.yaml')]);
  return { code: r.code, stderr: r.stderr };
}

const validCertificate = { name: 'certificate.png', bytes: readFileSync(join(EXAMPLE, 'images', 'spring.png')) };

describe('images are checked whole', () => {
  it('the whole manifest with valid images passes (the control)', async () => {
    const r = await validate('valid', (_f, b) => b, validCertificate);
    expect(r.stderr).not.toMatch(/error RCS3/);
    expect(r.code, r.stderr).toBe(0);
  });

  it.each(DEFECTS)('a PNG %s is refused in every image field, and as a certificate (RCS309)', async (label, defect) => {
    const r = await validate(label.replace(/\W+/g, '-'), (_f, b) => defect(b), { name: 'certificate.png', bytes: defect(validCertificate.bytes) });
    expect(r.code).toBe(1);
    for (const [field] of FIELDS) expect(r.stderr, field).toMatch(new RegExp(`error RCS309: "images/${field.replace('.', '\\.')}" is not a whole png image: `));
    expect(r.stderr).toMatch(/error RCS311: a subscription certificate "images\/certificate\.png" is not a png file by its content: /);
  });

  it('a PNG of 50,000 x 50,000 pixels is refused in every image field by the pixel ceiling (RCS310), without decoding it', async () => {
    const big = huge();
    expect(big.length).toBeLessThan(1024 * 1024);
    const r = await validate('huge', () => big, validCertificate);
    expect(r.code).toBe(1);
    for (const [field] of FIELDS) expect(r.stderr, field).toContain(`error RCS310: "images/${field}" is 50000x50000, 2,500,000,000 pixels; `);
    expect(r.stderr).toContain('may have at most 16,777,216');
    // Nor is it drawn into a preview: the brand fails, and no page embeds it.
    const site = join(dir, 'huge-site');
    const preview = await cli(['preview', join(dir, 'huge', 'brand.yaml'), '-o', site]);
    expect(preview.code).toBe(1);
    expect(preview.stderr).toContain('error RCS310');
    expect(existsSync(join(site, BRAND))).toBe(false);
  });

  it('a certificate is checked by its content, and an empty one is refused (RCS311, RCS312)', async () => {
    const text = await validate('cert-text', (_f, b) => b, { name: 'certificate.pdf', bytes: Buffer.from('Dear operator, please find attached') });
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/error RCS311: a subscription certificate "images\/certificate\.pdf" is not a pdf file by its content: it does not start as a PDF does/);
    const empty = await validate('cert-empty', (_f, b) => b, { name: 'certificate.pdf', bytes: Buffer.alloc(0) });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/error RCS312: "images\/certificate\.pdf" is empty/);
    const pdf = await validate('cert-pdf', (_f, b) => b, { name: 'certificate.pdf', bytes: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n') });
    expect(pdf.code, pdf.stderr).toBe(0);
  });
});

describe('the structure walk', () => {
  const png = (w: number, h: number): Buffer => {
    const p = new PNG({ width: w, height: h });
    p.data.fill(200);
    return PNG.sync.write(p);
  };

  it('PNG: whole, cut anywhere, or damaged anywhere', () => {
    const whole = png(40, 30);
    expect(imageStructure(whole, 'png')).toEqual({ width: 40, height: 30 });
    for (let cut = 1; cut < whole.length; cut += 7) expect(imageStructure(whole.subarray(0, cut), 'png'), `cut at ${cut}`).toHaveProperty('problem');
    for (let at = 8; at < whole.length; at += 5) {
      const damaged = Buffer.from(whole);
      damaged[at] = (damaged[at] as number) ^ 0x01;
      expect(imageStructure(damaged, 'png'), `byte ${at}`).toHaveProperty('problem');
    }
  });

  it('JPEG, GIF and BMP: whole, and cut short', () => {
    // A minimal baseline JPEG (8x8 grey), GIF (1x1) and BMP (2x2, 24 bits).
    const jpeg = Buffer.from(
      'ffd8ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffc0000b080008000801011100ffc4001f0000010501010101010100000000000000000102030405060708090a0bffc400b5100002010303020403050504040000017d01020300041105122131410613516107227114328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffda0008010100003f00fbd3ffd9',
      'hex',
    );
    expect(imageStructure(jpeg, 'jpeg')).toEqual({ width: 8, height: 8 });
    for (const cut of [2, 20, jpeg.length - 10, jpeg.length - 2, jpeg.length - 1]) expect(imageStructure(jpeg.subarray(0, cut), 'jpeg'), `cut at ${cut}`).toHaveProperty('problem');
    const gif = Buffer.from('47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex');
    expect(imageStructure(gif, 'gif')).toEqual({ width: 1, height: 1 });
    for (let cut = 1; cut < gif.length; cut++) expect(imageStructure(gif.subarray(0, cut), 'gif'), `cut at ${cut}`).toHaveProperty('problem');
    const bmp = Buffer.alloc(54 + 16);
    bmp.write('BM', 0, 'latin1');
    bmp.writeUInt32LE(bmp.length, 2);
    bmp.writeUInt32LE(54, 10);
    bmp.writeUInt32LE(40, 14);
    bmp.writeInt32LE(2, 18);
    bmp.writeInt32LE(2, 22);
    bmp.writeUInt16LE(1, 26);
    bmp.writeUInt16LE(24, 28);
    expect(imageStructure(bmp, 'bmp')).toEqual({ width: 2, height: 2 });
    expect(imageStructure(bmp.subarray(0, 60), 'bmp')).toHaveProperty('problem');
  });
});
