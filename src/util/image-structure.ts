// Whether an image file is whole, by walking its structure without decoding a
// pixel: PNG chunks and their CRCs through IEND (with IHDR first and image
// data present), JPEG segments through the entropy-coded scan to EOI, GIF
// blocks through the trailer, BMP headers and the pixel array they announce.
// A header alone (what image-size reads) says nothing of the rest: a PNG cut
// to 33 bytes has a perfect header. The walk reads each byte at most once, so
// a 50,000 x 50,000 PNG costs its file size, not the 10 GB it would decode to;
// the pixel ceiling (`MAX_IMAGE_PIXELS`) is checked by the caller from the
// dimensions given here. Used by validate (src/manifest/local-files.ts) and
// by the emulator, which refuses such uploads as the service would.
// docs/decisions.md, "Images are checked whole".

/** The most pixels an image of any field may have unless its use says less: 16.7 million (4096 x 4096, 64 MB decoded as RGBA). */
export const MAX_IMAGE_PIXELS = 4096 * 4096;

/** An image's format, as its extension or content names it. */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'bmp';

/** The dimensions of a whole image, or what is wrong with it. */
export type Structure = { width: number; height: number } | { problem: string };

/** Walk `bytes` as `format`. */
export function imageStructure(bytes: Uint8Array, format: ImageFormat): Structure {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (format) {
    case 'png':
      return png(b);
    case 'jpeg':
      return jpeg(b);
    case 'gif':
      return gif(b);
    case 'bmp':
      return bmp(b);
  }
}

/** The format a lower-case extension names, if an image one. */
export function imageFormatOf(extension: string): ImageFormat | undefined {
  if (extension === 'png' || extension === 'gif' || extension === 'bmp') return extension;
  if (extension === 'jpg' || extension === 'jpeg') return 'jpeg';
  return undefined;
}

/**
 * What is wrong with a non-image file by its content (a certificate's PDF,
 * TIFF or ZIP), or undefined when its content is of the type its extension
 * says; images are walked whole.
 */
export function contentProblem(bytes: Uint8Array, extension: string): string | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length === 0) return 'it is empty';
  const image = imageFormatOf(extension);
  if (image !== undefined) {
    const s = imageStructure(b, image);
    return 'problem' in s ? s.problem : undefined;
  }
  const starts = (sig: string): boolean => b.subarray(0, sig.length).toString('latin1') === sig;
  switch (extension) {
    case 'pdf':
      if (!starts('%PDF-')) return 'it does not start as a PDF does (%PDF-)';
      return b.subarray(Math.max(0, b.length - 1024)).toString('latin1').includes('%%EOF') ? undefined : 'it has no end-of-file marker (%%EOF): cut short';
    case 'tif':
    case 'tiff':
      return starts('II*\0') || starts('MM\0*') ? undefined : 'it does not start as a TIFF does';
    case 'zip':
      return starts('PK\u0003\u0004') ? undefined : 'it does not start as a ZIP archive with a file does';
    default:
      return undefined;
  }
}

const CUT = 'cut short';

function png(b: Buffer): Structure {
  const SIG = [137, 80, 78, 71, 13, 10, 26, 10];
  if (b.length < 8 || SIG.some((v, i) => b[i] !== v)) return { problem: 'it does not start with the PNG signature' };
  let at = 8;
  let width = 0;
  let height = 0;
  let data = false;
  for (let first = true; ; first = false) {
    if (at + 12 > b.length) return { problem: `${CUT}: it ends at byte ${b.length} without an IEND chunk` };
    const length = b.readUInt32BE(at);
    const type = b.toString('latin1', at + 4, at + 8);
    if (!/^[A-Za-z]{4}$/.test(type)) return { problem: `byte ${at} is not a chunk` };
    if (length > 0x7fffffff || at + 12 + length > b.length) return { problem: `${CUT}: chunk ${type} at byte ${at} runs past the end of the file` };
    if (crc32(b, at + 4, at + 8 + length) !== b.readUInt32BE(at + 8 + length)) return { problem: `chunk ${type} at byte ${at} fails its CRC: damaged` };
    if (first) {
      if (type !== 'IHDR' || length !== 13) return { problem: 'its first chunk is not IHDR' };
      width = b.readUInt32BE(at + 8);
      height = b.readUInt32BE(at + 12);
      if (width === 0 || height === 0) return { problem: 'its width or height is 0' };
    }
    if (type === 'IDAT') data = true;
    if (type === 'IEND') return data ? { width, height } : { problem: 'it has no image data (no IDAT chunk)' };
    at += 12 + length;
  }
}

/** SOFn markers: the frame header, with the dimensions. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Buffer): Structure {
  if (b.length < 2 || b[0] !== 0xff || b[1] !== 0xd8) return { problem: 'it does not start with a JPEG start-of-image marker' };
  let at = 2;
  let width = 0;
  let height = 0;
  let frame = false;
  let scan = false;
  while (at < b.length) {
    if (b[at] !== 0xff) return { problem: `byte ${at} is not a marker: damaged` };
    while (b[at] === 0xff) at++;
    const marker = b[at++];
    if (marker === undefined) break;
    if (marker === 0xd9) {
      if (!frame) return { problem: 'it has no frame header (SOF)' };
      if (!scan) return { problem: 'it has no image data (no SOS scan)' };
      return { width, height };
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    if (at + 2 > b.length) break;
    const length = b.readUInt16BE(at);
    if (length < 2 || at + length > b.length) return { problem: `${CUT}: segment ${marker.toString(16)} at byte ${at} runs past the end of the file` };
    if (SOF.has(marker)) {
      if (length < 7) return { problem: 'its frame header is too short' };
      height = b.readUInt16BE(at + 3);
      width = b.readUInt16BE(at + 5);
      if (width === 0 || height === 0) return { problem: 'its width or height is 0' };
      frame = true;
    }
    at += length;
    if (marker === 0xda) {
      scan = true;
      // Entropy-coded data: 0xFF is followed by 0x00 (a stuffed byte), a restart marker, or the next marker.
      while (at < b.length) {
        if (b[at] === 0xff) {
          const next = b[at + 1];
          if (next === 0x00 || (next !== undefined && next >= 0xd0 && next <= 0xd7)) {
            at += 2;
            continue;
          }
          break;
        }
        at++;
      }
    }
  }
  return { problem: `${CUT}: it ends without an end-of-image marker (EOI)` };
}

function gif(b: Buffer): Structure {
  const sig = b.toString('latin1', 0, 6);
  if (sig !== 'GIF87a' && sig !== 'GIF89a') return { problem: 'it does not start with a GIF signature' };
  if (b.length < 13) return { problem: `${CUT}: no logical screen descriptor` };
  const width = b.readUInt16LE(6);
  const height = b.readUInt16LE(8);
  if (width === 0 || height === 0) return { problem: 'its width or height is 0' };
  const flags = b[10] as number;
  let at = 13 + (flags & 0x80 ? 3 * (2 << (flags & 7)) : 0);
  let images = 0;
  const subBlocks = (): boolean => {
    for (;;) {
      if (at >= b.length) return false;
      const n = b[at++] as number;
      if (n === 0) return true;
      at += n;
      if (at > b.length) return false;
    }
  };
  while (at < b.length) {
    const block = b[at++];
    if (block === 0x3b) return images > 0 ? { width, height } : { problem: 'it holds no image' };
    if (block === 0x21) {
      at++;
      if (!subBlocks()) break;
    } else if (block === 0x2c) {
      if (at + 10 > b.length) break;
      const local = b[at + 8] as number;
      at += 9 + (local & 0x80 ? 3 * (2 << (local & 7)) : 0);
      const codeSize = b[at++];
      if (codeSize === undefined || codeSize < 2 || codeSize > 11) return { problem: 'an image has an invalid LZW code size: damaged' };
      if (!subBlocks()) break;
      images++;
    } else {
      return { problem: `byte ${at - 1} is not a GIF block: damaged` };
    }
  }
  return { problem: `${CUT}: it ends without the GIF trailer` };
}

function bmp(b: Buffer): Structure {
  if (b.length < 2 || b.toString('latin1', 0, 2) !== 'BM') return { problem: 'it does not start with a BMP signature' };
  if (b.length < 26) return { problem: `${CUT}: its headers are incomplete` };
  const fileSize = b.readUInt32LE(2);
  const offset = b.readUInt32LE(10);
  const dib = b.readUInt32LE(14);
  if (dib < 12 || 14 + dib > b.length) return { problem: `${CUT}: its info header is incomplete` };
  let width: number;
  let height: number;
  let bpp: number;
  let compression = 0;
  if (dib === 12) {
    width = b.readUInt16LE(18);
    height = b.readInt16LE(20);
    bpp = b.readUInt16LE(24);
  } else {
    if (dib < 40) return { problem: 'its info header has an unknown size' };
    width = b.readInt32LE(18);
    height = b.readInt32LE(22);
    bpp = b.readUInt16LE(28);
    compression = b.readUInt32LE(30);
  }
  if (width <= 0 || height === 0) return { problem: 'its width or height is 0 or negative' };
  if (![1, 4, 8, 16, 24, 32].includes(bpp)) return { problem: `${bpp} bits per pixel is not a BMP depth` };
  if (fileSize > b.length) return { problem: `${CUT}: its header says ${fileSize} bytes, the file has ${b.length}` };
  if (offset < 14 + dib || offset >= b.length) return { problem: `${CUT}: its pixel data would start at byte ${offset}` };
  // Uncompressed rows (BI_RGB, BI_BITFIELDS, BI_ALPHABITFIELDS): their size is known.
  if (compression === 0 || compression === 3 || compression === 6) {
    const need = Math.floor((bpp * width + 31) / 32) * 4 * Math.abs(height);
    if (offset + need > b.length) return { problem: `${CUT}: its pixel data needs ${need} bytes, ${b.length - offset} are there` };
  }
  return { width, height: Math.abs(height) };
}

let table: Uint32Array | undefined;

/** CRC-32 (as PNG chunks use) of `b[from, to)`. */
function crc32(b: Buffer, from: number, to: number): number {
  if (table === undefined) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = from; i < to; i++) c = (table[(c ^ (b[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
