// Stored file bytes are served back at `<emulator>/files/<fileId>/<fileName>`
// (no auth), so file and logo URLs point at the emulator itself.

import { imageFormatOf, imageStructure, MAX_IMAGE_PIXELS } from '../util/image-structure.js';
import { extensionOf } from './validate.js';

const TYPES: Record<string, string> = {
  gif: 'image/gif',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  tiff: 'image/tiff',
  zip: 'application/zip',
};

/** Content type for a file name, by extension. */
export function contentTypeOf(fileName: string): string {
  return TYPES[extensionOf(fileName)] ?? 'application/octet-stream';
}

/** The emulator URL that serves a stored file. */
export function fileUrl(baseUrl: string, fileId: string, fileName: string): string {
  return `${baseUrl}/files/${encodeURIComponent(fileId)}/${encodeURIComponent(fileName)}`;
}

/**
 * Whether an uploaded file cannot be read as what its name says: an image cut
 * short, damaged or with no image data, or over the pixel ceiling;
 * an empty file. The emulator refuses such uploads as a file of a type it does
 * not take (docs/emulator.md).
 */
export function unreadableUpload(bytes: Uint8Array, fileName: string): boolean {
  const extension = extensionOf(fileName);
  const format = imageFormatOf(extension);
  // Documents (a certificate) are the operator's to read: only an empty one is refused here.
  if (format === undefined) return bytes.length === 0;
  const s = imageStructure(bytes, format);
  return 'problem' in s || s.width * s.height > MAX_IMAGE_PIXELS;
}
