// Stored file bytes are served back at `<emulator>/files/<fileId>/<fileName>`
// (no auth), so file and logo URLs point at the emulator itself.

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
