// Small helpers every resource module uses: paths, listing, multipart parts.

import { newFormData, type FormData } from './undici.js';
import { page } from './envelope.js';
import type { OperationLabel } from './errors.js';
import { paginate, type Listing } from './paginate.js';
import type { Check } from './shape.js';
import type { BrandRef, Transport } from './transport.js';

/** Management interface version prefix (the service reference, Versioning). */
export const API_PREFIX = '/api/1.1';

/** A file to upload: name, content and MIME type. */
export interface UploadFile {
  fileName: string;
  bytes: Uint8Array;
  contentType: string;
}

/** `/api/1.1/brand/{brandId}` followed by `rest`, path segments escaped. */
export function brandPath(brand: BrandRef, rest = ''): string {
  return `${API_PREFIX}/brand/${encodeURIComponent(brand.id)}${rest}`;
}

/** Escape one path segment (ids come from the service or a manifest, not from us). */
export function seg(id: string): string {
  return encodeURIComponent(id);
}

/** Every item of the list endpoint at `path`, pages of 1000, each item checked with `item`. */
export function listAll<T>(transport: Transport, path: string, item: Check, label: OperationLabel, brand?: BrandRef): Listing<T> {
  return paginate<T>(async (offset, limit) => {
    const res = await transport.send({ method: 'GET', path, query: { offset, limit }, label, ...(brand !== undefined ? { brand } : {}) });
    return page<T>(res, item, label);
  });
}

/** Append a binary part with its file name and content type. */
export function appendFile(form: FormData, part: string, file: UploadFile): void {
  form.append(part, new Blob([file.bytes], { type: file.contentType }), file.fileName);
}

/**
 * Append a JSON part with `Content-Type: application/json`: many servers bind a
 * JSON part only when it says so, and neither document calls the type optional.
 * undici gives a Blob part a file name; `<part>.json` says what it holds.
 */
export function appendJson(form: FormData, part: string, value: unknown): void {
  form.append(part, new Blob([JSON.stringify(value)], { type: 'application/json' }), `${part}.json`);
}

/** A fresh FormData (undici's, so the transport sends it as multipart with a boundary). */
export function newForm(): FormData {
  return newFormData();
}

/** Every item of `items`, passed through `fn`. */
export async function* mapAll<T, U>(items: AsyncIterable<T>, fn: (item: T) => U): AsyncIterable<U> {
  for await (const item of items) yield fn(item);
}
